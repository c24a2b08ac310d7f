package blob

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const grace = time.Hour

func planFixture(t *testing.T, f *fixture, src Source) (*MarkSet, *GCPlan) {
	t.Helper()
	m, err := Mark(context.Background(), src, 2)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Plan(f.store, m, grace, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return m, p
}

func TestPlanReasons(t *testing.T) {
	f := newFixture(t)
	f.build()
	m, p := planFixture(t, f, f.source())
	if errs := m.Errors(); len(errs) != 0 {
		t.Fatalf("unexpected unreadable: %v", errs)
	}
	if m.NumFiles() != 6 {
		t.Errorf("scanned %d session files, want 6: %v", m.NumFiles(), m.Files())
	}
	got := map[Hash]Reason{}
	for _, g := range p.Groups {
		got[g.Hash] = g.Reason
	}
	for h, want := range f.wantReason {
		if got[h] != want {
			t.Errorf("%s: reason %q, want %q", h, got[h], want)
		}
	}
	if len(got) != len(f.wantReason) {
		t.Errorf("plan has %d groups, fixture declares %d", len(got), len(f.wantReason))
	}
	odd := map[string]Reason{}
	for _, o := range p.Others {
		odd[o.Name] = o.Reason
	}
	if len(odd) != 8 || odd["link-to-outside"] != ReasonSymlink || odd["README.txt"] != ReasonOddName {
		t.Errorf("others = %v", odd)
	}
	if p.DeleteBytes != f.deleteBytes {
		t.Errorf("DeleteBytes = %d, want %d", p.DeleteBytes, f.deleteBytes)
	}
	if p.DeleteFiles != len(f.wantDeleted) {
		t.Errorf("DeleteFiles = %d, want %d", p.DeleteFiles, len(f.wantDeleted))
	}
	if p.Blocked() {
		t.Error("plan blocked without unreadable files")
	}
}

func TestDryRunChangesNothing(t *testing.T) {
	f := newFixture(t)
	f.build()
	before := snapshot(t, f.base)
	_, p := planFixture(t, f, f.source())
	if p.DeleteGroups == 0 {
		t.Fatal("fixture has nothing to delete; test would be vacuous")
	}
	gone, changed := diffSnapshots(before, snapshot(t, f.base))
	if len(gone)+len(changed) != 0 {
		t.Fatalf("dry run touched files: gone %v changed %v", gone, changed)
	}
}

func TestApplyDeletesExactlyUnreferencedOld(t *testing.T) {
	f := newFixture(t)
	f.build()
	before := snapshot(t, f.base)
	_, p := planFixture(t, f, f.source())
	res, err := Apply(context.Background(), p, ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 0 || len(res.Errors) != 0 {
		t.Fatalf("skipped %v errors %v", res.Skipped, res.Errors)
	}
	gone, changed := diffSnapshots(before, snapshot(t, f.base))
	if len(changed) != 0 {
		t.Errorf("files changed: %v", changed)
	}
	goneSet := map[string]bool{}
	for _, g := range gone {
		goneSet[g] = true
		name, ok := strings.CutPrefix(g, filepath.Join("agent", "blobs")+string(filepath.Separator))
		if !ok || !f.wantDeleted[name] {
			t.Errorf("deleted %s, which must be kept", g)
		}
	}
	for name := range f.wantDeleted {
		if !goneSet[filepath.Join("agent", "blobs", name)] {
			t.Errorf("%s was not deleted", name)
		}
	}
	if res.Freed != f.deleteBytes {
		t.Errorf("Freed = %d, want %d", res.Freed, f.deleteBytes)
	}
	if _, err := os.Stat(filepath.Join(f.outside, "precious.png")); err != nil {
		t.Errorf("symlink target outside the store: %v", err)
	}
	// A second run finds nothing more to delete.
	_, p2 := planFixture(t, f, f.source())
	if p2.DeleteGroups != 0 {
		t.Errorf("second plan wants to delete %d groups", p2.DeleteGroups)
	}
}

// unreadableSession makes a file under the sessions root that the mark
// cannot read, in a way that works when the tests run as root.
type unreadableKind struct {
	name string
	make func(t *testing.T, f *fixture) string
}

func unreadableKinds() []unreadableKind {
	return []unreadableKind{
		{"chmod 000", func(t *testing.T, f *fixture) string {
			if os.Geteuid() == 0 {
				t.Skip("running as root: chmod 000 does not block reads (covered by the other kinds)")
			}
			p := filepath.Join(f.sessions, "-proj", "locked.jsonl")
			f.writeFile(p, []byte(sessionLine("x", hashOf("x"))), time.Time{})
			if err := os.Chmod(p, 0); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(p, 0o644) })
			return p
		}},
		{"unreadable directory", func(t *testing.T, f *fixture) string {
			if os.Geteuid() == 0 {
				t.Skip("running as root: chmod 000 does not block reads (covered by the other kinds)")
			}
			p := filepath.Join(f.sessions, "-locked")
			if err := os.Mkdir(p, 0); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(p, 0o755) })
			return p
		}},
		{"truncated gzip archive", func(t *testing.T, f *fixture) string {
			p := filepath.Join(f.archive, "-proj", "broken.jsonl.gz")
			data := gz(t, []byte(strings.Repeat(sessionLine("x", hashOf("x")), 200)))
			f.writeFile(p, data[:len(data)/2], time.Time{})
			return p
		}},
		{"dangling symlink named like a session", func(t *testing.T, f *fixture) string {
			p := filepath.Join(f.sessions, "-proj", "gone.jsonl")
			if err := os.Symlink(filepath.Join(f.base, "does-not-exist.jsonl"), p); err != nil {
				t.Fatal(err)
			}
			return p
		}},
		{"directory named like a session file, unreadable file inside", func(t *testing.T, f *fixture) string {
			// A directory is walked, not scanned; put a FIFO or a bad gzip
			// inside to make it unreadable portably.
			p := filepath.Join(f.sessions, "odd.jsonl", "inner.jsonl.gz")
			f.writeFile(p, []byte{0x1f, 0x8b, 0, 0}, time.Time{})
			return p
		}},
	}
}

func TestUnreadableBlocksDeletion(t *testing.T) {
	kinds := append(unreadableKinds(), platformUnreadableKinds()...)
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			f := newFixture(t)
			f.build()
			bad := k.make(t, f)
			before := snapshot(t, f.store.Dir)
			_, p := planFixture(t, f, f.source())
			if !p.Blocked() {
				t.Fatalf("plan not blocked; unreadable = %v", p.Unreadable)
			}
			if p.Unreadable[0].Path != bad {
				t.Errorf("unreadable = %v, want %s", p.Unreadable, bad)
			}
			res, err := Apply(context.Background(), p, ApplyOptions{})
			if !errors.Is(err, ErrUnreadable) {
				t.Fatalf("Apply error = %v, want ErrUnreadable", err)
			}
			if len(res.Deleted) != 0 {
				t.Fatalf("deleted %d groups", len(res.Deleted))
			}
			if gone, changed := diffSnapshots(before, snapshot(t, f.store.Dir)); len(gone)+len(changed) != 0 {
				t.Fatalf("store changed: %v %v", gone, changed)
			}
			// The override deletes and names the unreadable files.
			res, err = Apply(context.Background(), p, ApplyOptions{IgnoreUnreadable: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Deleted) != p.DeleteGroups || len(res.Unreadable) == 0 || res.Unreadable[0].Path != bad {
				t.Fatalf("override: deleted %d/%d, unreadable %v", len(res.Deleted), p.DeleteGroups, res.Unreadable)
			}
		})
	}
}

func TestMissingRootFailsClosed(t *testing.T) {
	f := newFixture(t)
	f.build()
	src := f.source()
	src.Roots = append(src.Roots, filepath.Join(f.base, "typo-sessions"))
	_, p := planFixture(t, f, src)
	if !p.Blocked() {
		t.Fatal("missing root did not block")
	}
	if _, err := Apply(context.Background(), p, ApplyOptions{}); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("err = %v", err)
	}
	// A missing optional root is fine.
	src = f.source()
	src.OptionalRoots = append(src.OptionalRoots, filepath.Join(f.base, "no-archive"))
	if _, p = planFixture(t, f, src); p.Blocked() {
		t.Fatalf("missing optional root blocked: %v", p.Unreadable)
	}
}

func TestNoSessionsRefused(t *testing.T) {
	f := newFixture(t)
	f.build()
	empty := filepath.Join(f.base, "empty")
	os.Mkdir(empty, 0o755)
	before := snapshot(t, f.store.Dir)
	_, p := planFixture(t, f, Source{Roots: []string{empty}})
	if _, err := Apply(context.Background(), p, ApplyOptions{}); !errors.Is(err, ErrNoSessions) {
		t.Fatalf("err = %v", err)
	}
	if gone, _ := diffSnapshots(before, snapshot(t, f.store.Dir)); len(gone) != 0 {
		t.Fatalf("deleted %v", gone)
	}
}

func TestApplyRechecksFiles(t *testing.T) {
	f := newFixture(t)
	f.build()
	_, p := planFixture(t, f, f.source())
	del := p.Delete()
	if len(del) < 3 {
		t.Fatal("fixture too small")
	}
	// Touch one (as an agent re-writing the same blob would), replace one
	// with a new inode, and grow one after the plan was made.
	touched, replaced, grown := del[0], del[1], del[2]
	now := time.Now()
	os.Chtimes(touched.Files[0].Path, now, now)
	repl := replaced.Files[0].Path
	data, _ := os.ReadFile(repl)
	os.WriteFile(repl+".tmpx", data, 0o644)
	os.Chtimes(repl+".tmpx", f.old, f.old)
	os.Rename(repl+".tmpx", repl)
	os.Chtimes(repl, replaced.Files[0].ModTime, replaced.Files[0].ModTime)
	fh, _ := os.OpenFile(grown.Files[0].Path, os.O_APPEND|os.O_WRONLY, 0)
	fh.Write([]byte("x"))
	fh.Close()
	os.Chtimes(grown.Files[0].Path, grown.Files[0].ModTime, grown.Files[0].ModTime)

	res, err := Apply(context.Background(), p, ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	skipped := map[Hash]string{}
	for _, s := range res.Skipped {
		skipped[s.Hash] = s.Why
	}
	for _, g := range []Group{touched, replaced, grown} {
		if skipped[g.Hash] == "" {
			t.Errorf("%s was not skipped", g.Hash)
		}
		for _, file := range g.Files {
			if _, err := os.Lstat(file.Path); err != nil {
				t.Errorf("%s: %v", file.Name, err)
			}
		}
	}
	if len(res.Deleted) != len(del)-3 {
		t.Errorf("deleted %d, want %d", len(res.Deleted), len(del)-3)
	}
}

func TestPathTraversalRefsNeverReachFS(t *testing.T) {
	// A store and sessions whose only "refs" are hostile. The mark must find
	// nothing and Plan/Apply must only ever see names from the listing.
	f := newFixture(t)
	victim := filepath.Join(f.base, "etc", "passwd")
	f.writeFile(victim, []byte("root:x:0:0"), f.old)
	hostile := []string{
		"blob:sha256:../../etc/passwd",
		"blob:sha256:" + strings.Repeat("../", 30) + "etc/passwd",
		"blob:sha256:" + strings.ToUpper(hexA),
		"blob:sha256:" + hexA[:63],
		"blob:sha256:" + hexA + "0",
		"blob:sha256:" + hexA[:62] + "/x",
		"blob:sha256:" + hexA[:40] + "/../../../etc/passwd",
		"blob:sha256:" + hexA[:63] + "\u0000",
	}
	lines := ""
	for _, s := range hostile {
		lines += `{"type":"message","data":"` + strings.ReplaceAll(s, "\n", `\n`) + `"}` + "\n"
	}
	f.writeFile(filepath.Join(f.sessions, "evil.jsonl"), []byte(lines), f.old)
	m, p := planFixture(t, f, f.source())
	if m.Len() != 0 {
		t.Fatalf("marked %v from hostile refs", m.Hashes())
	}
	if _, err := Apply(context.Background(), p, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatal(err)
	}
	for _, s := range hostile {
		if _, err := ParseRef(s); err == nil {
			t.Fatalf("%q parsed", s)
		}
	}
}

func TestPlanAndReportJSON(t *testing.T) {
	f := newFixture(t)
	f.build()
	_, p := planFixture(t, f, f.source())
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Store        struct{ Dir string }
		Groups       []struct{ Hash, Reason string }
		Others       []map[string]any
		DeleteGroups int `json:"delete_groups"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Store.Dir != f.store.Dir || back.DeleteGroups != p.DeleteGroups || len(back.Groups) != len(p.Groups) {
		t.Fatalf("round trip: %+v", back)
	}
	for i, g := range back.Groups {
		if g.Hash != p.Groups[i].Hash.String() || g.Reason != string(p.Groups[i].Reason) {
			t.Fatalf("group %d: %+v", i, g)
		}
	}
	rep, err := f.store.VerifyAll(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	rb, _ := json.Marshal(rep)
	var rback struct{ Results []map[string]any }
	json.Unmarshal(rb, &rback)
	for _, r := range rback.Results {
		if r["status"] == string(StatusOddName) && r["hash"] != nil {
			t.Fatalf("odd-name result carries a hash: %v", r)
		}
		if r["status"] == string(StatusOK) && r["hash"] == nil {
			t.Fatalf("ok result without hash: %v", r)
		}
	}
}

func TestVanishedFileIsNotUnreadable(t *testing.T) {
	f := newFixture(t)
	f.build()
	// A temp file (as written by an atomic rewrite) is listed by the walk
	// and renamed into place before it is opened.
	// Named to sort after the other files, so one worker reaches it last.
	tmp := filepath.Join(f.sessions, "-proj", "zz.s.jsonl.123.tmp")
	final := filepath.Join(f.sessions, "-proj", "s.jsonl")
	h := f.put("renamed into place", f.old)
	f.writeFile(tmp, []byte(sessionLine("r", h)), time.Time{})
	testHookScanned = func(p string) {
		if p != tmp {
			os.Rename(tmp, final)
		}
	}
	defer func() { testHookScanned = nil }()
	m, err := Mark(context.Background(), Source{Roots: []string{f.sessions}}, 1)
	testHookScanned = nil
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Errors()) != 0 {
		t.Fatalf("errors: %v", m.Errors())
	}
	if m.Vanished() != 1 || m.Has(h) {
		t.Fatalf("vanished %d, has %v", m.Vanished(), m.Has(h))
	}
	// Refresh finds the file it was renamed to.
	if n, err := m.Refresh(context.Background()); err != nil || n != 1 || !m.Has(h) {
		t.Fatalf("refresh: %d %v has=%v", n, err, m.Has(h))
	}
	// An explicit file that does not exist is an error.
	m, _ = Mark(context.Background(), Source{Files: []string{filepath.Join(f.base, "gone.jsonl")}}, 1)
	if len(m.Errors()) != 1 {
		t.Fatalf("explicit missing file: %v", m.Errors())
	}
}

func TestWalkFollowsSymlinksWithoutLooping(t *testing.T) {
	f := newFixture(t)
	inLinkedDir := f.put("session in a symlinked dir", f.old)
	viaLinkedFile := f.put("session file that is a symlink", f.old)
	elsewhere := filepath.Join(f.base, "elsewhere", "real")
	f.writeFile(filepath.Join(elsewhere, "a.jsonl"), []byte(sessionLine("a", inLinkedDir)), f.old)
	f.writeFile(filepath.Join(f.base, "elsewhere", "b.data"), []byte(sessionLine("b", viaLinkedFile)), f.old)
	os.MkdirAll(f.sessions, 0o755)
	os.Symlink(elsewhere, filepath.Join(f.sessions, "linked"))
	os.Symlink(filepath.Join(f.base, "elsewhere", "b.data"), filepath.Join(f.sessions, "b.jsonl"))
	os.Symlink(".", filepath.Join(f.sessions, "loop"))
	os.Symlink(f.sessions, filepath.Join(elsewhere, "back"))
	m, err := Mark(context.Background(), Source{Roots: []string{f.sessions}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Errors()) != 0 || !m.Has(inLinkedDir) || !m.Has(viaLinkedFile) {
		t.Fatalf("errors %v, hashes %v", m.Errors(), m.Hashes())
	}
	if m.NumFiles() != 2 {
		t.Fatalf("files %v", m.Files())
	}
}
