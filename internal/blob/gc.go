package blob

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Reason says why the garbage collector keeps or deletes a group of files.
type Reason string

// Plan reasons. Only ReasonDelete groups are ever deleted.
const (
	ReasonReferenced Reason = "referenced"    // a session file references the hash
	ReasonGrace      Reason = "kept-in-grace" // a file of the group is newer than the grace period
	ReasonDelete     Reason = "delete"        // unreferenced and old: would be (or was) deleted
	ReasonOddName    Reason = "odd-name"      // name does not match NameRE; never deleted
	ReasonSymlink    Reason = "symlink"       // a symlink (or a group containing one); never deleted
	ReasonNotRegular Reason = "not-regular"   // directory, FIFO, ...; never deleted
)

// File is one store file in a plan.
type File struct {
	Name    string    `json:"name"`
	Path    string    `json:"path"`
	Kind    Kind      `json:"kind"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
	info    fs.FileInfo
}

// Group is every file named after one hash: the bare blob (if present)
// first, then its sidecars. A group is kept or deleted as a whole.
type Group struct {
	Hash   Hash   `json:"hash"`
	Reason Reason `json:"reason"`
	Files  []File `json:"files"`
	// Bytes is the space the group occupies in the store: the sizes of its
	// distinct files (hard links counted once). Deleting it frees this much
	// unless the files have links outside the store.
	Bytes int64 `json:"bytes"`
}

// Other is a store entry whose name does not match NameRE.
type Other struct {
	File
	Reason Reason `json:"reason"`
}

// GCPlan is what the garbage collector would do with one store.
type GCPlan struct {
	Store Store         `json:"store"`
	Now   time.Time     `json:"now"`
	Grace time.Duration `json:"grace_ns"`
	// Groups holds one entry per hash that names a store file, by hash.
	Groups []Group `json:"groups"`
	// Others are entries with names outside NameRE; never deleted.
	Others []Other `json:"others"`
	// Mark summary.
	SessionFiles int         `json:"session_files"`
	ScannedBytes int64       `json:"scanned_bytes"`
	Referenced   int         `json:"referenced_hashes"`
	Unreadable   []FileError `json:"unreadable"`
	// Totals of the ReasonDelete groups.
	DeleteGroups int   `json:"delete_groups"`
	DeleteFiles  int   `json:"delete_files"`
	DeleteBytes  int64 `json:"delete_bytes"`

	marks *MarkSet
}

// Plan lists the store once and classifies every file against the marks. It
// changes nothing. A group is deleted only if no file of it is a symlink or
// a non-regular file, its hash is not in marks, and every file of it is at
// least grace old at now (files with a future mtime are kept).
func Plan(store Store, marks *MarkSet, grace time.Duration, now time.Time) (*GCPlan, error) {
	x, err := store.List()
	if err != nil {
		return nil, err
	}
	p := &GCPlan{
		Store:        store,
		Now:          now,
		Grace:        grace,
		SessionFiles: marks.NumFiles(),
		ScannedBytes: marks.Bytes(),
		Referenced:   marks.Len(),
		Unreadable:   marks.Errors(),
		marks:        marks,
	}
	cutoff := now.Add(-grace)
	for _, e := range x.Entries {
		if e.HasHash {
			continue
		}
		r := ReasonOddName
		switch e.Kind {
		case KindSymlink:
			r = ReasonSymlink
		case KindNotRegular:
			r = ReasonNotRegular
		}
		p.Others = append(p.Others, Other{File: fileOf(store, e), Reason: r})
	}
	for _, h := range x.Hashes() {
		g := Group{Hash: h}
		var symlink, notRegular, young bool
		for _, e := range x.Group(h) {
			g.Files = append(g.Files, fileOf(store, e))
			switch e.Kind {
			case KindSymlink:
				symlink = true
			case KindNotRegular:
				notRegular = true
			}
			if e.ModTime.After(cutoff) {
				young = true
			}
		}
		switch {
		case symlink:
			g.Reason = ReasonSymlink
		case notRegular:
			g.Reason = ReasonNotRegular
		case marks.Has(h):
			g.Reason = ReasonReferenced
		case young:
			g.Reason = ReasonGrace
		default:
			g.Reason = ReasonDelete
		}
		g.Bytes = distinctBytes(g.Files)
		if g.Reason == ReasonDelete {
			p.DeleteGroups++
			p.DeleteFiles += len(g.Files)
			p.DeleteBytes += g.Bytes
		}
		p.Groups = append(p.Groups, g)
	}
	return p, nil
}

func fileOf(s Store, e Entry) File {
	return File{Name: e.Name, Path: filepath.Join(s.Dir, e.Name), Kind: e.Kind, Size: e.Size, ModTime: e.ModTime, info: e.info}
}

// distinctBytes sums the sizes of regular files, counting hard links once.
func distinctBytes(files []File) int64 {
	var n int64
outer:
	for i, f := range files {
		if f.Kind != KindBlob && f.Kind != KindSidecar {
			continue
		}
		for _, g := range files[:i] {
			if (g.Kind == KindBlob || g.Kind == KindSidecar) && os.SameFile(f.info, g.info) {
				continue outer
			}
		}
		n += f.Size
	}
	return n
}

// Delete returns the groups the plan would delete.
func (p *GCPlan) Delete() []Group {
	var out []Group
	for _, g := range p.Groups {
		if g.Reason == ReasonDelete {
			out = append(out, g)
		}
	}
	return out
}

// Blocked reports whether Apply without IgnoreUnreadable would refuse
// because some session file or directory could not be read.
func (p *GCPlan) Blocked() bool { return len(p.Unreadable) > 0 }

// ApplyOptions tune Apply.
type ApplyOptions struct {
	// IgnoreUnreadable deletes even though some session files could not be
	// read (their references are unknown). Callers must say so in output.
	IgnoreUnreadable bool
	// AllowNoSessions deletes even if the mark found no session file at
	// all. Without it an empty mark (a wrong root, a moved sessions dir) is
	// refused, because it would make every blob look unreferenced.
	AllowNoSessions bool
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// RefreshEvery is how long deletions may run before the session files
	// are checked again for changes; 0 means 250ms.
	RefreshEvery time.Duration
}

// Skip is a ReasonDelete group that Apply did not delete.
type Skip struct {
	Hash Hash   `json:"hash"`
	Why  string `json:"why"`
}

// ApplyResult is what Apply did.
type ApplyResult struct {
	Deleted    []Group     `json:"deleted"`
	Skipped    []Skip      `json:"skipped"`
	Errors     []FileError `json:"errors"`      // removals that failed
	Freed      int64       `json:"freed_bytes"` // Bytes of fully deleted groups
	Rescanned  int         `json:"rescanned"`   // session files rescanned before/while deleting
	Unreadable []FileError `json:"unreadable"`  // ignored because IgnoreUnreadable was set
}

// ErrUnreadable is returned by Apply when session files could not be read
// and IgnoreUnreadable is not set. Nothing has been deleted.
var ErrUnreadable = errors.New("some session files could not be read; nothing deleted (fail closed)")

// ErrNoSessions is returned by Apply when the mark found no session file
// and AllowNoSessions is not set. Nothing has been deleted.
var ErrNoSessions = errors.New("no session files found for this blob store; nothing deleted")

// Apply deletes the ReasonDelete groups of plan. Before any deletion, and
// again whenever RefreshEvery has passed, it rescans the session files that
// are new or changed since the mark (MarkSet.Refresh) and skips groups whose
// hash became referenced. For each file of a group it checks, right before
// removing, that it is still the same regular file (identity, size, mtime)
// and still older than the grace period; if any file fails the check the
// whole group is kept. Sidecars are removed before the bare blob. Removal
// goes through os.Root, so it cannot act outside the store and never
// follows a symlink. It fails closed as described at ErrUnreadable and
// ErrNoSessions; read errors that appear during the refresh also stop it.
func Apply(ctx context.Context, plan *GCPlan, opts ApplyOptions) (*ApplyResult, error) {
	if plan.marks == nil {
		return nil, errors.New("blob: plan was not made by Plan")
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	every := opts.RefreshEvery
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	res := &ApplyResult{}
	checkMarks := func() error {
		if errs := plan.marks.Errors(); len(errs) > 0 {
			if !opts.IgnoreUnreadable {
				return fmt.Errorf("%w: %d unreadable, first %s: %s", ErrUnreadable, len(errs), errs[0].Path, errs[0].Err)
			}
			res.Unreadable = errs
		}
		if plan.marks.NumFiles() == 0 && !opts.AllowNoSessions {
			return ErrNoSessions
		}
		return nil
	}
	if err := checkMarks(); err != nil {
		return res, err
	}
	del := plan.Delete()
	if len(del) == 0 {
		return res, nil
	}
	refresh := func() error {
		n, err := plan.marks.Refresh(ctx)
		res.Rescanned += n
		if err != nil {
			return err
		}
		return checkMarks()
	}
	if err := refresh(); err != nil {
		return res, err
	}
	last := time.Now()
	root, err := os.OpenRoot(plan.Store.Dir)
	if err != nil {
		return res, err
	}
	defer root.Close()
	for _, g := range del {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if time.Since(last) >= every {
			if err := refresh(); err != nil {
				return res, err
			}
			last = time.Now()
		}
		if plan.marks.Has(g.Hash) {
			res.Skipped = append(res.Skipped, Skip{Hash: g.Hash, Why: "referenced by a session file that changed during gc"})
			continue
		}
		cutoff := now().Add(-plan.Grace)
		if why := recheck(root, g, cutoff); why != "" {
			res.Skipped = append(res.Skipped, Skip{Hash: g.Hash, Why: why})
			continue
		}
		// Sidecars first, bare blob last: an interrupted run leaves the
		// blob readable or an orphan sidecar that the next run removes.
		ok := true
		for i := len(g.Files) - 1; i >= 0; i-- {
			f := g.Files[i]
			if err := root.Remove(f.Name); err != nil && !errors.Is(err, fs.ErrNotExist) {
				res.Errors = append(res.Errors, FileError{Path: f.Path, Err: err.Error()})
				ok = false
				break
			}
		}
		if ok {
			res.Deleted = append(res.Deleted, g)
			res.Freed += g.Bytes
		}
	}
	return res, nil
}

// recheck returns why g must be kept now, or "" if it may be removed.
func recheck(root *os.Root, g Group, cutoff time.Time) string {
	for _, f := range g.Files {
		cur, err := root.Lstat(f.Name)
		if errors.Is(err, fs.ErrNotExist) {
			continue // already gone
		}
		if err != nil {
			return fmt.Sprintf("%s: %v", f.Name, err)
		}
		switch {
		case !cur.Mode().IsRegular():
			return f.Name + " is no longer a regular file"
		case !os.SameFile(f.info, cur):
			return f.Name + " was replaced since the plan"
		case cur.Size() != f.Size || !cur.ModTime().Equal(f.ModTime):
			return f.Name + " changed since the plan"
		case cur.ModTime().After(cutoff):
			return f.Name + " is inside the grace period"
		}
	}
	return ""
}
