// Package archive keeps the files of pruned sessions, compressed, with a
// manifest of their original paths, sizes, modes, times and SHA-256
// hashes, and puts them back byte for byte.
//
// An archive is a folder "<UTC time>-<agent>-<id>" under the archive root
// ($XDG_DATA_HOME/sessctl/archive): files/<n>.gz (gzip, one per file) and
// manifest.json. It is built under a dot-name and renamed into place once
// every file is written, fsynced and verified, so an archive that is
// listed is complete. Every file is created through package safewrite
// (O_EXCL, never through a symbolic link) and read back without following
// links.
package archive

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/safewrite"
)

// ManifestName is the manifest's file name inside an archive.
const ManifestName = "manifest.json"

// Entry is one archived file.
type Entry struct {
	// Path is where the file was (absolute).
	Path string `json:"path"`
	Size int64  `json:"size"`
	// SHA256 is the hex digest of the original bytes.
	SHA256 string      `json:"sha256"`
	Mode   fs.FileMode `json:"mode"`
	MTime  time.Time   `json:"mtime"`
	// Stored is the compressed copy, relative to the archive folder.
	Stored string `json:"stored"`
	// StoredSize is the size of the compressed copy.
	StoredSize int64 `json:"storedSize"`
}

// Manifest describes one archived session.
type Manifest struct {
	Version  int       `json:"version"`
	Created  time.Time `json:"created"`
	Agent    string    `json:"agent"`
	ID       string    `json:"id"`
	Cwd      string    `json:"cwd"`
	Title    string    `json:"title,omitempty"`
	Session  string    `json:"session"` // the session file's path
	Reasons  []string  `json:"reasons,omitempty"`
	Entries  []Entry   `json:"entries"`
	Restored bool      `json:"-"`
}

// Archived is an archive found under the root.
type Archived struct {
	Name     string    `json:"name"`
	Dir      string    `json:"dir"`
	Manifest *Manifest `json:"manifest"`
}

// Bytes is the total original size.
func (m *Manifest) Bytes() int64 {
	var n int64
	for _, e := range m.Entries {
		n += e.Size
	}
	return n
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// Create archives files (regular files, absolute paths) of one session
// under root and returns the archive folder. It does not remove the
// originals; Verify tells whether each original is still what was
// archived. On error nothing is left under root but a dot-named folder
// that the next Create removes… only when its pid is dead (never a
// complete archive).
func Create(root string, m Manifest, files []string, now time.Time) (string, *Manifest, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", nil, err
	}
	name := now.UTC().Format("20060102T150405Z") + "-" + unsafeName.ReplaceAllString(m.Agent, "_") + "-" + unsafeName.ReplaceAllString(m.ID, "_")
	final := filepath.Join(root, name)
	for i := 2; exists(final); i++ {
		final = filepath.Join(root, name+"-"+strconv.Itoa(i))
	}
	tmp := filepath.Join(root, "."+filepath.Base(final)+".partial-"+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return "", nil, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Mkdir(filepath.Join(tmp, "files"), 0o700); err != nil {
		return "", nil, err
	}
	m.Version, m.Created, m.Entries = 1, now.UTC(), nil
	for i, p := range files {
		e, err := store(tmp, fmt.Sprintf("files/%04d.gz", i+1), p)
		if err != nil {
			return "", nil, fmt.Errorf("archiving %s: %w", p, err)
		}
		m.Entries = append(m.Entries, e)
	}
	b, err := json.MarshalIndent(&m, "", "  ")
	if err != nil {
		return "", nil, err
	}
	w, err := safewrite.Create(filepath.Join(tmp, ManifestName), safewrite.Options{Mode: 0o600})
	if err != nil {
		return "", nil, err
	}
	w.Write(append(b, '\n'))
	if _, err := w.Commit(); err != nil {
		return "", nil, err
	}
	if err := safewrite.SyncDir(filepath.Join(tmp, "files")); err != nil {
		return "", nil, err
	}
	if err := os.Rename(tmp, final); err != nil {
		return "", nil, err
	}
	if err := safewrite.SyncDir(root); err != nil {
		return "", nil, err
	}
	ok = true
	return final, &m, nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// store compresses src into dir/rel and checks the copy by reading it back.
func store(dir, rel, src string) (Entry, error) {
	f, err := os.Open(src)
	if err != nil {
		return Entry{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Entry{}, err
	}
	if !st.Mode().IsRegular() {
		return Entry{}, fmt.Errorf("not a regular file")
	}
	w, err := safewrite.Create(filepath.Join(dir, rel), safewrite.Options{Mode: 0o600})
	if err != nil {
		return Entry{}, err
	}
	h := sha256.New()
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	n, err := io.Copy(io.MultiWriter(zw, h), bufio.NewReaderSize(f, 1<<20))
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		w.Abort()
		return Entry{}, err
	}
	res, err := w.Commit()
	if err != nil {
		return Entry{}, err
	}
	e := Entry{Path: src, Size: n, SHA256: hex.EncodeToString(h.Sum(nil)), Mode: st.Mode().Perm(), MTime: st.ModTime(), Stored: rel, StoredSize: res.NewSize}
	// The copy must give back the same bytes.
	sum, size, err := storedSum(filepath.Join(dir, rel))
	if err != nil {
		return Entry{}, err
	}
	if sum != e.SHA256 || size != e.Size {
		return Entry{}, fmt.Errorf("the compressed copy does not read back as the original")
	}
	// The original must not have changed while it was copied.
	st2, err := os.Stat(src)
	if err != nil {
		return Entry{}, err
	}
	if st2.Size() != n || !st2.ModTime().Equal(st.ModTime()) {
		return Entry{}, fmt.Errorf("%s changed while it was archived: the agent seems to be writing it", src)
	}
	return e, nil
}

// storedSum decompresses an archived copy (not following a link) and
// returns the SHA-256 and size of its content.
func storedSum(p string) (string, int64, error) {
	f, _, err := safewrite.OpenNoFollow(p)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return "", 0, err
	}
	h := sha256.New()
	n, err := io.Copy(h, zr)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// Unchanged reports whether the original of e still has the size and
// modification time it had when it was archived.
func Unchanged(e Entry) bool {
	st, err := os.Lstat(e.Path)
	return err == nil && st.Mode().IsRegular() && st.Size() == e.Size && st.ModTime().Equal(e.MTime)
}

// Open reads the manifest of an archive folder (no link followed).
func Open(dir string) (*Manifest, error) {
	f, _, err := safewrite.OpenNoFollow(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var m Manifest
	if err := json.NewDecoder(f).Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestName), err)
	}
	for _, e := range m.Entries {
		if !filepath.IsAbs(e.Path) || filepath.Clean(e.Path) != e.Path {
			return nil, fmt.Errorf("%s: entry path %q is not a clean absolute path", dir, e.Path)
		}
		if !regexp.MustCompile(`^files/[0-9]{4,}\.gz$`).MatchString(e.Stored) {
			return nil, fmt.Errorf("%s: stored name %q is not one sessctl writes", dir, e.Stored)
		}
	}
	return &m, nil
}

// List returns the archives under root, oldest first.
func List(root string) ([]Archived, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Archived
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		m, err := Open(dir)
		if err != nil {
			continue
		}
		out = append(out, Archived{Name: e.Name(), Dir: dir, Manifest: m})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// FileResult is what Restore did with one entry.
type FileResult struct {
	Path string `json:"path"`
	// Action is "restored", "present" (the same bytes are already there)
	// or, in a dry run, "would-restore".
	Action string `json:"action"`
	Size   int64  `json:"size"`
}

// ConflictError lists originals that exist with other content.
type ConflictError struct{ Paths []string }

func (e *ConflictError) Error() string {
	return fmt.Sprintf("refusing to overwrite %s: it exists with other content (nothing was restored)", strings.Join(e.Paths, ", "))
}

// Restore puts every file of the archive in dir back where it was, byte
// for byte (checked against the manifest's hash before the file is
// published), with its mode and modification time. It never overwrites:
// a file already there with the same bytes is left as is, with other bytes
// the whole restore is refused before anything is written. With dryRun it
// only checks.
func Restore(dir string, dryRun bool) ([]FileResult, error) {
	m, err := Open(dir)
	if err != nil {
		return nil, err
	}
	var conflicts []string
	present := map[string]bool{}
	for _, e := range m.Entries {
		if _, err := os.Lstat(e.Path); err == nil {
			same := false
			if sum, size, err := fileSum(e.Path); err == nil && sum == e.SHA256 && size == e.Size {
				same = true
			}
			if !same {
				conflicts = append(conflicts, e.Path)
			}
			present[e.Path] = true
		}
		if sum, size, err := storedSum(filepath.Join(dir, e.Stored)); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Stored, err)
		} else if sum != e.SHA256 || size != e.Size {
			return nil, fmt.Errorf("%s: the archived copy of %s does not match its hash: not restored", filepath.Join(dir, e.Stored), e.Path)
		}
	}
	if len(conflicts) > 0 {
		return nil, &ConflictError{Paths: conflicts}
	}
	var out []FileResult
	for _, e := range m.Entries {
		if present[e.Path] {
			out = append(out, FileResult{Path: e.Path, Action: "present", Size: e.Size})
			continue
		}
		if dryRun {
			out = append(out, FileResult{Path: e.Path, Action: "would-restore", Size: e.Size})
			continue
		}
		if err := restoreOne(dir, e); err != nil {
			return out, fmt.Errorf("restoring %s: %w", e.Path, err)
		}
		out = append(out, FileResult{Path: e.Path, Action: "restored", Size: e.Size})
	}
	return out, nil
}

func fileSum(p string) (string, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil)), n, err
}

func restoreOne(dir string, e Entry) error {
	if err := os.MkdirAll(filepath.Dir(e.Path), 0o700); err != nil {
		return err
	}
	f, _, err := safewrite.OpenNoFollow(filepath.Join(dir, e.Stored))
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return err
	}
	mode := e.Mode
	if mode == 0 {
		mode = 0o600
	}
	w, err := safewrite.Create(e.Path, safewrite.Options{Mode: mode})
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), zr)
	if err != nil {
		w.Abort()
		return err
	}
	if hex.EncodeToString(h.Sum(nil)) != e.SHA256 || n != e.Size {
		w.Abort()
		return fmt.Errorf("the archived copy does not match its hash")
	}
	if _, err := w.Commit(); err != nil {
		return err
	}
	return os.Chtimes(e.Path, e.MTime, e.MTime)
}

// Remove deletes an archive folder (after a complete restore).
func Remove(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return safewrite.SyncDir(filepath.Dir(dir))
}
