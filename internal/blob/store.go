package blob

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"
)

// NameRE is the exact pattern of a file the garbage collector may delete: a
// bare blob or a sidecar with a lowercase alphanumeric extension.
var NameRE = regexp.MustCompile(`^[a-f0-9]{64}(\.[a-z0-9]+)?$`)

// Store is a blob store directory (for example ~/.omp/agent/blobs).
type Store struct {
	// Dir is the store directory. It may itself be a symlink.
	Dir string `json:"dir"`
}

// Path returns the path of the bare blob named h. It is the only place where
// a Hash becomes a path.
func (s Store) Path(h Hash) string { return filepath.Join(s.Dir, h.String()) }

// Kind classifies a directory entry of a store.
type Kind string

// Entry kinds.
const (
	KindBlob       Kind = "blob"        // regular file named <64 hex>
	KindSidecar    Kind = "sidecar"     // regular file named <64 hex>.<ext>
	KindSymlink    Kind = "symlink"     // symlink, whatever its name
	KindNotRegular Kind = "not-regular" // directory, FIFO, device, socket
	KindOddName    Kind = "odd-name"    // regular file whose name does not match NameRE
)

// Entry is one file in a store directory, as seen by Lstat.
type Entry struct {
	Name    string      `json:"name"`
	Kind    Kind        `json:"kind"`
	Hash    Hash        `json:"hash,omitzero"` // valid only if HasHash
	HasHash bool        `json:"-"`             // name matches NameRE (any kind)
	Ext     string      `json:"ext"`           // sidecar extension without the dot
	Size    int64       `json:"size"`          // Lstat size
	ModTime time.Time   `json:"mtime"`         // Lstat mtime
	Mode    fs.FileMode `json:"-"`             // Lstat mode
	info    fs.FileInfo // for identity checks (os.SameFile)
}

// Index is one listing of a store directory, indexed by hash.
type Index struct {
	Store   Store
	Entries []Entry // sorted by name
	byHash  map[Hash][]int
}

// List reads the store directory once and classifies every entry. A missing
// store directory yields an error wrapping fs.ErrNotExist.
func (s Store) List() (*Index, error) {
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	d, err := root.Open(".")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	des, err := d.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", s.Dir, err)
	}
	idx := &Index{Store: s, byHash: make(map[Hash][]int, len(des))}
	for _, de := range des {
		name := de.Name()
		info, err := root.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since ReadDir
		}
		if err != nil {
			return nil, fmt.Errorf("lstat %s: %w", filepath.Join(s.Dir, name), err)
		}
		idx.Entries = append(idx.Entries, classify(name, info))
	}
	sort.Slice(idx.Entries, func(i, j int) bool { return idx.Entries[i].Name < idx.Entries[j].Name })
	for i, e := range idx.Entries {
		if e.HasHash {
			idx.byHash[e.Hash] = append(idx.byHash[e.Hash], i)
		}
	}
	return idx, nil
}

// classify builds the Entry for name from its Lstat info.
func classify(name string, info fs.FileInfo) Entry {
	e := Entry{Name: name, Size: info.Size(), ModTime: info.ModTime(), Mode: info.Mode(), info: info}
	if NameRE.MatchString(name) {
		e.Hash, _ = ParseHex(name[:HexLen])
		e.HasHash = true
		if len(name) > HexLen {
			e.Ext = name[HexLen+1:]
		}
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		e.Kind = KindSymlink
	case !info.Mode().IsRegular():
		e.Kind = KindNotRegular
	case !e.HasHash:
		e.Kind = KindOddName
	case e.Ext == "":
		e.Kind = KindBlob
	default:
		e.Kind = KindSidecar
	}
	return e
}

// Group returns every entry whose name matches NameRE for h: the bare blob
// (if any) first, then sidecars by name. Kinds may be symlink or not-regular.
func (x *Index) Group(h Hash) []Entry {
	ids := x.byHash[h]
	out := make([]Entry, 0, len(ids))
	for _, i := range ids {
		out = append(out, x.Entries[i])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Ext == "" && out[j].Ext != "" })
	return out
}

// Blob returns the bare blob entry for h (of any kind) if the name exists.
func (x *Index) Blob(h Hash) (Entry, bool) {
	for _, i := range x.byHash[h] {
		if x.Entries[i].Ext == "" {
			return x.Entries[i], true
		}
	}
	return Entry{}, false
}

// Sidecars returns the <hex>.<ext> entries for h (of any kind).
func (x *Index) Sidecars(h Hash) []Entry {
	var out []Entry
	for _, i := range x.byHash[h] {
		if x.Entries[i].Ext != "" {
			out = append(out, x.Entries[i])
		}
	}
	return out
}

// Hashes returns every hash that names at least one entry, sorted.
func (x *Index) Hashes() []Hash {
	out := make([]Hash, 0, len(x.byHash))
	for h := range x.byHash {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return string(out[i][:]) < string(out[j][:]) })
	return out
}

// Sidecars lists the store and returns the sidecars of h. For many hashes,
// call List once and use Index.Sidecars.
func (s Store) Sidecars(h Hash) ([]Entry, error) {
	x, err := s.List()
	if err != nil {
		return nil, err
	}
	return x.Sidecars(h), nil
}

// ErrSymlink is returned when a store entry that would be read is a symlink.
var ErrSymlink = errors.New("store entry is a symlink (not followed)")

// ErrNotRegular is returned when a store entry is not a regular file.
var ErrNotRegular = errors.New("store entry is not a regular file")

// Open opens the bare blob h for reading. It refuses symlinks and anything
// that is not a regular file, and it cannot open a file outside the store.
func (s Store) Open(h Hash) (*os.File, error) {
	return s.openName(h.String())
}

// openName opens a store entry by name with the checks described at Open.
// name must come from a Hash or from a listing of the store.
func (s Store) openName(name string) (*os.File, error) {
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return openInRoot(root, name)
}

func openInRoot(root *os.Root, name string) (*os.File, error) {
	li, err := root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if li.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s: %w", name, ErrSymlink)
	}
	if !li.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", name, ErrNotRegular)
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !os.SameFile(li, fi) {
		// Swapped between Lstat and Open (for instance for a symlink).
		f.Close()
		return nil, fmt.Errorf("%s: changed while opening", name)
	}
	return f, nil
}

// Read returns the whole content of the bare blob h (see Open).
func (s Store) Read(h Hash) ([]byte, error) {
	f, err := s.Open(h)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
