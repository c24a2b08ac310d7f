package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Source says which session files reference a store. Use only the session
// roots of the agent that owns the store.
type Source struct {
	// Roots are walked recursively (for example <agent>/sessions and every
	// --sessions-dir). A root that does not exist or cannot be read is an
	// error, so that a wrong path fails closed instead of marking nothing.
	Roots []string
	// OptionalRoots are walked if they exist (for example
	// <agent>/archive/sessions); other errors still count.
	OptionalRoots []string
	// Files are exact session files outside the roots; each must be
	// readable.
	Files []string
	// Match selects files under the roots by base name; nil means
	// DefaultMatch.
	Match func(name string) bool
}

// DefaultMatch selects session files and everything derived from them: any
// name containing ".jsonl" (session files, .jsonl.gz archives, .jsonl.bak
// and .jsonl.<n>.bak backups, oh-my-pi's .<name>.jsonl.<n>.tmp rewrite
// files, sessctl backups of session files) and any name ending in ".bak" or
// ".gz". Over-matching only costs time; a missed file could cost a blob.
func DefaultMatch(name string) bool {
	return strings.Contains(name, ".jsonl") || strings.HasSuffix(name, ".bak") || strings.HasSuffix(name, ".gz")
}

// MatchAll selects every file under the roots.
func MatchAll(string) bool { return true }

// FileError is a session file or directory that could not be read.
type FileError struct {
	Path string `json:"path"`
	Err  string `json:"error"`
}

// MarkSet is the set of hashes referenced by the session files of a Source,
// with the identity of every file as scanned and the files that failed.
// Hashes are only ever added.
type MarkSet struct {
	// Started is when the mark began.
	Started time.Time

	src     Source
	workers int

	mu       sync.Mutex
	hashes   map[Hash]struct{}
	files    map[string]fs.FileInfo // path -> info of the file as scanned
	errs     map[string]string      // path -> error
	bytes    int64
	vanished int
}

// Mark scans every file of src on workers goroutines (2 if workers < 1) and
// returns the references found. Unreadable files and directories do not
// stop the mark; they are listed by Errors. The error is non-nil only if ctx
// was cancelled.
func Mark(ctx context.Context, src Source, workers int) (*MarkSet, error) {
	if workers < 1 {
		workers = 2
	}
	m := &MarkSet{
		Started: time.Now(),
		src:     src,
		workers: workers,
		hashes:  map[Hash]struct{}{},
		files:   map[string]fs.FileInfo{},
		errs:    map[string]string{},
	}
	paths := m.collect()
	if err := m.scan(ctx, paths); err != nil {
		return nil, err
	}
	return m, nil
}

// Has reports whether h is referenced.
func (m *MarkSet) Has(h Hash) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.hashes[h]
	return ok
}

// Len is the number of distinct referenced hashes.
func (m *MarkSet) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.hashes)
}

// Hashes returns the referenced hashes, sorted.
func (m *MarkSet) Hashes() []Hash {
	m.mu.Lock()
	out := make([]Hash, 0, len(m.hashes))
	for h := range m.hashes {
		out = append(out, h)
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return string(out[i][:]) < string(out[j][:]) })
	return out
}

// Files returns the session files scanned successfully, sorted.
func (m *MarkSet) Files() []string {
	m.mu.Lock()
	out := make([]string, 0, len(m.files))
	for p := range m.files {
		out = append(out, p)
	}
	m.mu.Unlock()
	sort.Strings(out)
	return out
}

// NumFiles is the number of session files scanned successfully.
func (m *MarkSet) NumFiles() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.files)
}

// Bytes is the total size of the files scanned (compressed size for gzip
// files), counting rescans.
func (m *MarkSet) Bytes() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}

// Vanished counts files that the walk listed but that no longer existed when
// they were opened (an agent's temporary file renamed into place, or a
// session deleted meanwhile). They are not errors: whatever replaced them
// is found by the walk or by Refresh.
func (m *MarkSet) Vanished() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.vanished
}

// explicit reports whether p was named in Source.Files (such files must
// exist).
func (m *MarkSet) explicit(p string) bool {
	for _, f := range m.src.Files {
		if f == p {
			return true
		}
	}
	return false
}

// Errors lists the session files and directories that could not be read,
// sorted by path. A file that failed once stays listed even if a later
// rescan succeeds.
func (m *MarkSet) Errors() []FileError {
	m.mu.Lock()
	out := make([]FileError, 0, len(m.errs))
	for p, e := range m.errs {
		out = append(out, FileError{Path: p, Err: e})
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func (m *MarkSet) addErr(path string, err error) {
	m.mu.Lock()
	if _, ok := m.errs[path]; !ok {
		m.errs[path] = err.Error()
	}
	m.mu.Unlock()
}

// Refresh walks the source again and rescans every session file that is
// new, that failed before, or whose identity, size or mtime differs from
// when it was scanned. It returns the number of files rescanned. Call it
// right before deleting (Apply does).
func (m *MarkSet) Refresh(ctx context.Context) (int, error) {
	paths := m.collect()
	var todo []string
	for _, p := range paths {
		m.mu.Lock()
		old, seen := m.files[p]
		_, failed := m.errs[p]
		m.mu.Unlock()
		if !seen || failed {
			todo = append(todo, p)
			continue
		}
		cur, err := os.Stat(p)
		if err != nil || !os.SameFile(old, cur) || cur.Size() != old.Size() || !cur.ModTime().Equal(old.ModTime()) {
			todo = append(todo, p)
		}
	}
	return len(todo), m.scan(ctx, todo)
}

// testHookScanned, if set by a test, is called after each file is scanned.
var testHookScanned func(path string)

// scan scans paths in parallel and merges the results into m.
func (m *MarkSet) scan(ctx context.Context, paths []string) error {
	type local struct {
		buf    []byte
		hashes map[Hash]struct{}
	}
	locals := make(chan *local, m.workers)
	for i := 0; i < m.workers; i++ {
		locals <- &local{buf: make([]byte, scanBufSize), hashes: map[Hash]struct{}{}}
	}
	err := runParallel(ctx, m.workers, paths, func(_ int, p string) {
		l := <-locals
		defer func() { locals <- l }()
		add := func(h Hash) { l.hashes[h] = struct{}{} }
		info, split, err := scanFileSplit(p, m.workers, add)
		if !split {
			info, err = scanFileBuf(p, l.buf, add)
		}
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && !m.explicit(p) {
				// Listed by the walk, gone before it was opened: an
				// agent's temp file renamed into place, or a deleted
				// session. Whatever it became is new or changed, so the
				// re-walk before deleting (Refresh) scans it.
				m.mu.Lock()
				m.vanished++
				m.mu.Unlock()
				return
			}
			m.addErr(p, err)
			return
		}
		m.mu.Lock()
		m.files[p] = info
		m.bytes += info.Size()
		m.mu.Unlock()
		if testHookScanned != nil {
			testHookScanned(p)
		}
	})
	close(locals)
	m.mu.Lock()
	for l := range locals {
		for h := range l.hashes {
			m.hashes[h] = struct{}{}
		}
	}
	m.mu.Unlock()
	return err
}

// collect lists the session files of the source, recording walk errors.
func (m *MarkSet) collect() []string {
	match := m.src.Match
	if match == nil {
		match = DefaultMatch
	}
	w := walker{m: m, match: match, seen: map[string]bool{}, visited: map[string]bool{}}
	for _, r := range m.src.Roots {
		w.root(r, false)
	}
	for _, r := range m.src.OptionalRoots {
		w.root(r, true)
	}
	for _, f := range m.src.Files {
		w.add(f)
	}
	return w.out
}

// fail records a walk error, except for a subdirectory that vanished
// after its parent was listed (counted like a vanished file).
func (w *walker) fail(dir string, err error, isRoot bool) {
	if !isRoot && errors.Is(err, fs.ErrNotExist) {
		w.m.mu.Lock()
		w.m.vanished++
		w.m.mu.Unlock()
		return
	}
	w.m.addErr(dir, err)
}

type walker struct {
	m       *MarkSet
	match   func(string) bool
	seen    map[string]bool // files already listed
	visited map[string]bool // real paths of directories walked
	out     []string
}

func (w *walker) add(p string) {
	if !w.seen[p] {
		w.seen[p] = true
		w.out = append(w.out, p)
	}
}

func (w *walker) root(dir string, optional bool) {
	st, err := os.Stat(dir)
	if err != nil {
		if optional && errors.Is(err, fs.ErrNotExist) {
			return
		}
		w.m.addErr(dir, fmt.Errorf("session root: %w", err))
		return
	}
	if !st.IsDir() {
		w.m.addErr(dir, fmt.Errorf("session root %s is not a directory", dir))
		return
	}
	w.dir(dir, true)
}

// dir walks one directory. Symlinks are followed (to files and to
// directories; a directory reached twice is walked once), because a missed
// reference could cost a blob while reading too much costs only time.
func (w *walker) dir(dir string, isRoot bool) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		w.fail(dir, err, isRoot)
		return
	}
	if w.visited[real] {
		return
	}
	w.visited[real] = true
	des, err := os.ReadDir(dir)
	if err != nil {
		w.fail(dir, err, isRoot)
		// ReadDir returns the entries read before the error; walk them.
	}
	for _, de := range des {
		p := filepath.Join(dir, de.Name())
		t := de.Type()
		if t&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			if err != nil {
				if w.match(de.Name()) {
					w.m.addErr(p, err) // dangling link named like a session file
				}
				continue
			}
			t = st.Mode().Type()
		}
		if t.IsDir() {
			w.dir(p, false)
			continue
		}
		if w.match(de.Name()) {
			w.add(p) // non-regular files are reported by the scan
		}
	}
}

// splitMinBytes: a plain (not gzip) session file at least this big is
// scanned in ranges, one goroutine each, instead of by one goroutine.
var splitMinBytes int64 = 64 << 20

// scanFileSplit scans a big plain file in parts ranges scanned in
// parallel, reporting exactly the references a serial scan reports; split
// is false (nothing done) for anything else: a file smaller than
// splitMinBytes, parts < 2, a gzip file, or one that cannot be opened or is
// not regular (scanFileBuf then reads it, and says why it cannot).
//
// Ranges meet just after a byte that no reference can contain (a byte
// other than a lowercase hex digit or a letter of "blob:sha256:", such as
// a quote or a newline), looked for from the even split point on: a
// reference before that byte ends before it, so its digits and the byte
// after it are in the range, judged as the serial scan judges them, and
// one after it lies wholly in the next range. Nothing overlaps, so each
// reference is found once. A split point with no such byte within 64 KiB
// is dropped (two ranges become one). The last range reads to the end of
// the file, as a serial scan does (a file that grows meanwhile is rescanned
// by Refresh).
func scanFileSplit(path string, parts int, fn func(Hash)) (os.FileInfo, bool, error) {
	if parts < 2 {
		return nil, false, nil
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() < splitMinBytes {
		return nil, false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, nil
	}
	defer f.Close()
	fst, err := f.Stat()
	if err != nil || !fst.Mode().IsRegular() || fst.Size() < splitMinBytes {
		return nil, false, nil
	}
	var head [2]byte
	if n, _ := f.ReadAt(head[:], 0); n == 2 && bytes.Equal(head[:], gzipMagic) {
		return nil, false, nil
	}
	size := fst.Size()
	bounds := []int64{0}
	look := make([]byte, 64<<10)
	for k := 1; k < parts; k++ {
		at := int64(k) * (size / int64(parts))
		if at <= bounds[len(bounds)-1] {
			continue
		}
		n, _ := f.ReadAt(look, at)
		for i, c := range look[:n] {
			if !refByte(c) {
				bounds = append(bounds, at+int64(i)+1)
				break
			}
		}
	}
	found := make([][]Hash, len(bounds))
	errs := make([]error, len(bounds))
	var wg sync.WaitGroup
	for k, start := range bounds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := int64(1 << 62) // the last range: to the end
			if k+1 < len(bounds) {
				n = bounds[k+1] - start
			}
			bp := bufPool.Get().(*[]byte)
			defer bufPool.Put(bp)
			errs[k] = scanBuf(io.NewSectionReader(f, start, n), *bp, func(h Hash) { found[k] = append(found[k], h) })
		}()
	}
	wg.Wait()
	for _, hs := range found {
		for _, h := range hs {
			fn(h)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fst, true, fmt.Errorf("%s: %w", path, err)
	}
	return fst, true, nil
}

// refByte reports whether c can be part of a reference: a lowercase hex
// digit or a letter of the prefix "blob:sha256:".
func refByte(c byte) bool {
	return isLowerHex(c) || strings.IndexByte(RefPrefix, c) >= 0
}
