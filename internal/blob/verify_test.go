package blob

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestVerifyAll(t *testing.T) {
	f := newFixture(t)
	f.build()
	rep, err := f.store.VerifyAll(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Result{}
	for _, r := range rep.Results {
		byName[r.Name] = r
	}
	want := map[string]Status{
		hashOf("image referenced by main session").String():          StatusOK,
		hashOf("image referenced by main session").String() + ".png": StatusOK, // hard link
		hashOf("what the name says").String():                        StatusCorrupt,
		hashOf("lost bare blob").String() + ".jpg":                   StatusOK, // orphan sidecar copy, content fine
		hashOf("old corrupt name").String():                          StatusCorrupt,
		hashOf("outside the store").String():                         StatusSymlink,
		hashOf("blob with symlink sidecar").String() + ".png":        StatusSymlink,
		hashOf("a directory").String():                               StatusNotRegular,
		"README.txt":                                                 StatusOddName,
		"link-to-outside":                                            StatusSymlink,
	}
	for name, st := range want {
		if byName[name].Status != st {
			t.Errorf("%s: %q, want %q", name, byName[name].Status, st)
		}
	}
	c := byName[hashOf("what the name says").String()]
	if c.Actual == nil || *c.Actual != hashOf("different bytes") {
		t.Errorf("corrupt result lacks the actual hash: %+v", c)
	}
	// Problems: 2 corrupt + 3 symlinks + 1 directory.
	if rep.Problems != 6 {
		t.Errorf("Problems = %d, want 6; counts %v", rep.Problems, rep.Counts)
	}
	des, _ := os.ReadDir(f.store.Dir)
	if len(rep.Results) != len(des) {
		t.Errorf("report has %d results for %d store entries", len(rep.Results), len(des))
	}
}

func TestVerifySidecarCopyCorrupt(t *testing.T) {
	f := newFixture(t)
	h := f.put("good blob", f.old)
	f.writeFile(f.storeFile(h.String()+".png"), []byte("bad copy"), f.old)
	rep, err := f.store.VerifyAll(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Problems != 1 || rep.Results[1].Status != StatusCorrupt || rep.Results[0].Status != StatusOK {
		t.Fatalf("%+v", rep.Results)
	}
}

func TestVerifyHashes(t *testing.T) {
	f := newFixture(t)
	ok := f.put("present", f.old)
	missing := hashOf("never stored")
	bad := hashOf("claimed")
	f.writeFile(f.store.Path(bad), []byte("other"), f.old)
	rep, err := f.store.VerifyHashes(context.Background(), []Hash{ok, missing, bad, ok}, 2)
	if err != nil {
		t.Fatal(err)
	}
	got := map[Hash]Status{}
	for _, r := range rep.Results {
		got[r.Hash] = r.Status
	}
	if len(rep.Results) != 3 || got[ok] != StatusOK || got[missing] != StatusMissing || got[bad] != StatusCorrupt || rep.Problems != 2 {
		t.Fatalf("%+v", rep)
	}
	// A store directory that does not exist: everything is missing.
	rep, err = Store{Dir: filepath.Join(f.base, "nope")}.VerifyHashes(context.Background(), []Hash{ok}, 2)
	if err != nil || rep.Results[0].Status != StatusMissing {
		t.Fatalf("%+v %v", rep, err)
	}
	if _, err := (Store{Dir: filepath.Join(f.base, "nope")}).VerifyAll(context.Background(), 2); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("VerifyAll on missing store: %v", err)
	}
}

func TestVerifyUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: chmod 000 does not make a file unreadable")
	}
	f := newFixture(t)
	h := f.put("locked", f.old)
	os.Chmod(f.store.Path(h), 0)
	defer os.Chmod(f.store.Path(h), 0o644)
	if r := f.store.Verify(h); r.Status != StatusUnreadable || r.Err == "" {
		t.Fatalf("%+v", r)
	}
}

func TestOpenRefusesSymlinks(t *testing.T) {
	f := newFixture(t)
	target := filepath.Join(f.outside, "secret")
	f.writeFile(target, []byte("secret"), time.Time{})
	h := Hash(sha256.Sum256([]byte("secret")))
	if err := os.Symlink(target, f.store.Path(h)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Read(h); !errors.Is(err, ErrSymlink) {
		t.Fatalf("Read through symlink: %v", err)
	}
	if r := f.store.Verify(h); r.Status != StatusSymlink {
		t.Fatalf("Verify: %+v", r)
	}
	// Store dir that is itself a symlink is fine.
	link := filepath.Join(f.base, "blobs-link")
	os.Symlink(f.store.Dir, link)
	g := f.put("via linked dir", f.old)
	if b, err := (Store{Dir: link}).Read(g); err != nil || string(b) != "via linked dir" {
		t.Fatalf("%q %v", b, err)
	}
}

func TestIndexSidecars(t *testing.T) {
	f := newFixture(t)
	f.build()
	x, err := f.store.List()
	if err != nil {
		t.Fatal(err)
	}
	h := hashOf("old unreferenced with copy sidecar")
	sc := x.Sidecars(h)
	if len(sc) != 1 || sc[0].Ext != "jpg" || sc[0].Kind != KindSidecar {
		t.Fatalf("%+v", sc)
	}
	if b, ok := x.Blob(h); !ok || b.Kind != KindBlob {
		t.Fatalf("%+v %v", b, ok)
	}
	if _, ok := x.Blob(hashOf("orphan sidecar")); ok {
		t.Fatal("orphan sidecar has a bare blob")
	}
	sc2, err := f.store.Sidecars(hashOf("orphan sidecar"))
	if err != nil || len(sc2) != 1 || sc2[0].Ext != "gif" {
		t.Fatalf("%+v %v", sc2, err)
	}
	// Group puts the bare blob first.
	g := x.Group(hashOf("image referenced by main session"))
	if len(g) != 2 || g[0].Ext != "" || g[1].Ext != "png" {
		t.Fatalf("%+v", g)
	}
}
