package blob

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// fixture is an agent dir with a blob store and session files in several
// roots, built in a temp dir.
type fixture struct {
	t        *testing.T
	base     string
	store    Store
	sessions string // <agent>/sessions
	archive  string // <agent>/archive/sessions (optional root)
	extra    string // a --sessions-dir root
	outside  string // files outside the store that symlinks point to
	old      time.Time
	// wantDeleted are the store file names an apply must delete.
	wantDeleted map[string]bool
	// wantReason is the expected plan reason per hash group.
	wantReason  map[Hash]Reason
	deleteBytes int64
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	base := t.TempDir()
	f := &fixture{
		t:           t,
		base:        base,
		store:       Store{Dir: filepath.Join(base, "agent", "blobs")},
		sessions:    filepath.Join(base, "agent", "sessions"),
		archive:     filepath.Join(base, "agent", "archive", "sessions"),
		extra:       filepath.Join(base, "elsewhere", "my-sessions"),
		outside:     filepath.Join(base, "outside"),
		old:         time.Now().Add(-48 * time.Hour),
		wantDeleted: map[string]bool{},
		wantReason:  map[Hash]Reason{},
	}
	for _, d := range []string{f.store.Dir, f.sessions, f.archive, f.extra, f.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) writeFile(path string, data []byte, mtime time.Time) {
	f.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		f.t.Fatal(err)
	}
	if !mtime.IsZero() {
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			f.t.Fatal(err)
		}
	}
}

// put stores data as a blob (name = its sha256) with the given mtime.
func (f *fixture) put(data string, mtime time.Time) Hash {
	h := Hash(sha256.Sum256([]byte(data)))
	f.writeFile(f.store.Path(h), []byte(data), mtime)
	return h
}

func (f *fixture) storeFile(name string) string { return filepath.Join(f.store.Dir, name) }

// sessionLine is a realistic omp message line with an externalized image.
func sessionLine(id string, h Hash) string {
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":null,"timestamp":"2026-02-16T10:20:30.123Z","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":%q,"mimeType":"image/png"}]}}`+"\n", id, h.Ref())
}

func gz(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// build fills the fixture. Each blob's expected fate is declared next to it.
func (f *fixture) build() {
	t := f.t
	old, now := f.old, time.Now()
	header := `{"type":"session","version":3,"id":"019e453e-4f91-7545-8524-5555ce807ae2","timestamp":"2026-02-16T10:20:30.123Z","cwd":"/home/u/proj"}` + "\n"

	// Referenced from a plain session file, with a hard-linked sidecar.
	refMain := f.put("image referenced by main session", old)
	if err := os.Link(f.store.Path(refMain), f.storeFile(refMain.String()+".png")); err != nil {
		t.Fatal(err)
	}
	f.wantReason[refMain] = ReasonReferenced
	// Referenced only from a --sessions-dir root.
	refExtra := f.put("image referenced from --sessions-dir", old)
	f.wantReason[refExtra] = ReasonReferenced
	// Referenced only from a gzipped archive in the optional archive root.
	refArchive := f.put("image referenced from archive", old)
	f.wantReason[refArchive] = ReasonReferenced
	// Referenced only from a .bak file and from a sessctl-style backup.
	refBak := f.put("image referenced from bak", old)
	f.wantReason[refBak] = ReasonReferenced
	refBackup := f.put("image referenced from sessctl backup", old)
	f.wantReason[refBackup] = ReasonReferenced
	// Referenced only from a subagent transcript two levels down.
	refSub := f.put("image referenced by subagent", old)
	f.wantReason[refSub] = ReasonReferenced
	// Referenced but corrupt: kept (verify reports it).
	refCorrupt := Hash(sha256.Sum256([]byte("what the name says")))
	f.writeFile(f.store.Path(refCorrupt), []byte("different bytes"), old)
	f.wantReason[refCorrupt] = ReasonReferenced
	// Referenced, bare blob missing, only a sidecar copy left: kept.
	refMissing := Hash(sha256.Sum256([]byte("lost bare blob")))
	f.writeFile(f.storeFile(refMissing.String()+".jpg"), []byte("lost bare blob"), old)
	f.wantReason[refMissing] = ReasonReferenced

	// Unreferenced and old: deleted, with a copied sidecar.
	oldCopy := f.put("old unreferenced with copy sidecar", old)
	f.writeFile(f.storeFile(oldCopy.String()+".jpg"), []byte("old unreferenced with copy sidecar"), old)
	f.wantReason[oldCopy] = ReasonDelete
	f.wantDeleted[oldCopy.String()] = true
	f.wantDeleted[oldCopy.String()+".jpg"] = true
	f.deleteBytes += 2 * int64(len("old unreferenced with copy sidecar"))
	// Unreferenced and old, hard-linked sidecar (bytes counted once).
	oldLink := f.put("old unreferenced with hard link sidecar", old)
	if err := os.Link(f.store.Path(oldLink), f.storeFile(oldLink.String()+".webp")); err != nil {
		t.Fatal(err)
	}
	f.wantReason[oldLink] = ReasonDelete
	f.wantDeleted[oldLink.String()] = true
	f.wantDeleted[oldLink.String()+".webp"] = true
	f.deleteBytes += int64(len("old unreferenced with hard link sidecar"))
	// Unreferenced, old, and corrupt: still just unreferenced: deleted.
	oldCorrupt := Hash(sha256.Sum256([]byte("old corrupt name")))
	f.writeFile(f.store.Path(oldCorrupt), []byte("old corrupt bytes"), old)
	f.wantReason[oldCorrupt] = ReasonDelete
	f.wantDeleted[oldCorrupt.String()] = true
	f.deleteBytes += int64(len("old corrupt bytes"))
	// Orphan sidecar of an unreferenced hash: deleted.
	orphan := Hash(sha256.Sum256([]byte("orphan sidecar")))
	f.writeFile(f.storeFile(orphan.String()+".gif"), []byte("orphan sidecar"), old)
	f.wantReason[orphan] = ReasonDelete
	f.wantDeleted[orphan.String()+".gif"] = true
	f.deleteBytes += int64(len("orphan sidecar"))
	// Referenced only by malformed refs (65 digits, upper case): deleted.
	malformed := f.put("only malformed refs point here", old)
	f.wantReason[malformed] = ReasonDelete
	f.wantDeleted[malformed.String()] = true
	f.deleteBytes += int64(len("only malformed refs point here"))

	// Unreferenced but new: kept by the grace period.
	fresh := f.put("fresh unreferenced", now)
	f.wantReason[fresh] = ReasonGrace
	// Unreferenced, old bare blob, but its sidecar copy is new: kept whole.
	halfFresh := f.put("old blob new sidecar", old)
	f.writeFile(f.storeFile(halfFresh.String()+".png"), []byte("old blob new sidecar"), now)
	f.wantReason[halfFresh] = ReasonGrace

	// Symlinked blob pointing outside the store: reported, never deleted,
	// target untouched.
	target := filepath.Join(f.outside, "precious.png")
	f.writeFile(target, []byte("outside the store"), old)
	symHash := Hash(sha256.Sum256([]byte("outside the store")))
	if err := os.Symlink(target, f.store.Path(symHash)); err != nil {
		t.Fatal(err)
	}
	f.wantReason[symHash] = ReasonSymlink
	// Old unreferenced blob whose sidecar is a symlink: the group is kept.
	symSide := f.put("blob with symlink sidecar", old)
	if err := os.Symlink(symSide.String(), f.storeFile(symSide.String()+".png")); err != nil {
		t.Fatal(err)
	}
	f.wantReason[symSide] = ReasonSymlink
	// A directory named like a blob.
	dirHash := Hash(sha256.Sum256([]byte("a directory")))
	if err := os.Mkdir(f.store.Path(dirHash), 0o755); err != nil {
		t.Fatal(err)
	}
	f.wantReason[dirHash] = ReasonNotRegular

	// Oddly named files: never deleted.
	upper := Hash(sha256.Sum256([]byte("upper")))
	for _, name := range []string{
		strings.ToUpper(upper.String()),
		upper.String()[:63],
		upper.String() + ".PNG",
		upper.String() + ".1234.5c3e0d1a-uuid.tmp",
		upper.String() + ".tar.gz",
		"README.txt",
		".DS_Store",
	} {
		f.writeFile(f.storeFile(name), []byte(name), old)
	}
	if err := os.Symlink(f.outside, f.storeFile("link-to-outside")); err != nil {
		t.Fatal(err)
	}

	// Sessions.
	proj := filepath.Join(f.sessions, "-proj")
	main := filepath.Join(proj, "2026-02-16T10-20-30-123Z_019e453e-4f91-7545-8524-5555ce807ae2.jsonl")
	f.writeFile(main, []byte(header+sessionLine("a1", refMain)+sessionLine("a2", refCorrupt)+
		sessionLine("a3", refMissing)+
		`{"type":"message","id":"bad","note":"blob:sha256:`+malformed.String()+`0 blob:sha256:`+strings.ToUpper(malformed.String())+`"}`+"\n"+
		`{"type":"message","id":"evil","data":"blob:sha256:../../etc/passwd"}`+"\n"), old)
	f.writeFile(filepath.Join(proj, "2026-02-16T10-20-30-123Z_019e453e-4f91-7545-8524-5555ce807ae2", "task-1.jsonl"),
		[]byte(header+sessionLine("s1", refSub)), old)
	f.writeFile(filepath.Join(proj, "2026-01-01T00-00-00-000Z_x.jsonl.1739700000000.bak"), []byte(header+sessionLine("b1", refBak)), old)
	f.writeFile(filepath.Join(proj, "2026-01-01T00-00-00-000Z_y.jsonl.sessctl-20260216T102030Z.bak"), []byte(header+sessionLine("c1", refBackup)), old)
	f.writeFile(filepath.Join(f.extra, "custom.jsonl"), []byte(header+sessionLine("e1", refExtra)), old)
	f.writeFile(filepath.Join(f.archive, "-proj", "2025-12-01T00-00-00-000Z_z.jsonl.gz"), gz(t, []byte(header+sessionLine("z1", refArchive))), old)
	// Not a session file: ignored by DefaultMatch.
	f.writeFile(filepath.Join(proj, "2026-02-16T10-20-30-123Z_019e453e-4f91-7545-8524-5555ce807ae2", "1.bash.log"),
		[]byte("echo "+oldCopy.Ref()), old)
}

func (f *fixture) source() Source {
	return Source{Roots: []string{f.sessions, f.extra}, OptionalRoots: []string{f.archive}}
}

// snapshot records every file under dir (name -> size, mtime, mode).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if info.IsDir() {
			out[rel] = "dir" // a directory's mtime changes when entries go
			return nil
		}
		out[rel] = fmt.Sprintf("%d %d %v", info.Size(), info.ModTime().UnixNano(), info.Mode())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffSnapshots(before, after map[string]string) (gone, changed []string) {
	for k, v := range before {
		w, ok := after[k]
		if !ok {
			gone = append(gone, k)
		} else if w != v {
			changed = append(changed, k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			changed = append(changed, "+"+k)
		}
	}
	sort.Strings(gone)
	sort.Strings(changed)
	return gone, changed
}
