package blob

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"os"
	"sort"
	"sync"
)

// Status is the outcome of verifying one store file.
type Status string

// Verify statuses. Every status but StatusOK and StatusOddName is a problem.
const (
	StatusOK         Status = "ok"          // SHA-256 of the bytes equals the name
	StatusMissing    Status = "missing"     // no file with that name
	StatusCorrupt    Status = "corrupt"     // readable, hash differs from the name
	StatusUnreadable Status = "unreadable"  // exists but cannot be read
	StatusSymlink    Status = "symlink"     // a symlink; not followed, not verified
	StatusNotRegular Status = "not-regular" // a directory, FIFO, device or socket
	StatusOddName    Status = "odd-name"    // name does not match NameRE; not verified
)

// Problem reports whether s should make a verify command fail (exit 3).
func (s Status) Problem() bool { return s != StatusOK && s != StatusOddName }

// Result is the verification of one store file.
type Result struct {
	Name   string `json:"name"`             // file name inside the store
	Hash   Hash   `json:"hash,omitzero"`    // the hash its name claims (zero for odd names)
	Status Status `json:"status"`           //
	Size   int64  `json:"size"`             // bytes read (or Lstat size)
	Actual *Hash  `json:"actual,omitempty"` // real SHA-256 when corrupt
	Err    string `json:"error,omitempty"`  // reason when unreadable
}

// Verify checks the bare blob h: it must exist, be a regular file (not a
// symlink) and its SHA-256 must equal h.
func (s Store) Verify(h Hash) Result {
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		r := Result{Name: h.String(), Hash: h}
		if errors.Is(err, fs.ErrNotExist) {
			r.Status = StatusMissing
		} else {
			r.Status, r.Err = StatusUnreadable, err.Error()
		}
		return r
	}
	defer root.Close()
	return verifyInRoot(root, h.String(), h)
}

// verifyInRoot hashes the entry name and compares it with want.
func verifyInRoot(root *os.Root, name string, want Hash) Result {
	r := Result{Name: name, Hash: want}
	f, err := openInRoot(root, name)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		r.Status = StatusMissing
		return r
	case errors.Is(err, ErrSymlink):
		r.Status = StatusSymlink
		return r
	case errors.Is(err, ErrNotRegular):
		r.Status = StatusNotRegular
		return r
	default:
		r.Status, r.Err = StatusUnreadable, err.Error()
		return r
	}
	defer f.Close()
	d := sha256.New()
	n, err := io.Copy(d, f)
	r.Size = n
	if err != nil {
		r.Status, r.Err = StatusUnreadable, err.Error()
		return r
	}
	var got Hash
	d.Sum(got[:0])
	if got != want {
		r.Status, r.Actual = StatusCorrupt, &got
		return r
	}
	r.Status = StatusOK
	return r
}

// Report is the result of verifying many store files.
type Report struct {
	Results  []Result       `json:"results"` // sorted by name
	Counts   map[Status]int `json:"counts"`
	Problems int            `json:"problems"`
}

func newReport(rs []Result) *Report {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
	rep := &Report{Results: rs, Counts: map[Status]int{}}
	for _, r := range rs {
		rep.Counts[r.Status]++
		if r.Status.Problem() {
			rep.Problems++
		}
	}
	return rep
}

// VerifyAll verifies every file of the store: each bare blob and each
// sidecar is hashed and compared with its name (a sidecar hard-linked to its
// verified blob is not hashed twice); symlinks and non-regular entries are
// reported as problems; files whose name does not match NameRE are listed
// as StatusOddName. workers < 1 means 2. A missing store directory is an
// error wrapping fs.ErrNotExist.
func (s Store) VerifyAll(ctx context.Context, workers int) (*Report, error) {
	x, err := s.List()
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var jobs []Entry
	var out []Result
	for _, e := range x.Entries {
		switch e.Kind {
		case KindBlob, KindSidecar:
			jobs = append(jobs, e)
		case KindSymlink:
			out = append(out, Result{Name: e.Name, Hash: e.Hash, Status: StatusSymlink, Size: e.Size})
		case KindNotRegular:
			out = append(out, Result{Name: e.Name, Hash: e.Hash, Status: StatusNotRegular})
		case KindOddName:
			out = append(out, Result{Name: e.Name, Status: StatusOddName, Size: e.Size})
		}
	}
	// Bare blobs first so that hard-linked sidecars can reuse their result.
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].Ext == "" && jobs[j].Ext != "" })
	var nblobs int
	for nblobs < len(jobs) && jobs[nblobs].Ext == "" {
		nblobs++
	}
	res := make([]Result, len(jobs))
	if err := runParallel(ctx, workers, jobs[:nblobs], func(i int, e Entry) {
		res[i] = verifyInRoot(root, e.Name, e.Hash)
	}); err != nil {
		return nil, err
	}
	blobRes := map[Hash]int{}
	for i := 0; i < nblobs; i++ {
		blobRes[jobs[i].Hash] = i
	}
	if err := runParallel(ctx, workers, jobs[nblobs:], func(i int, e Entry) {
		if bi, ok := blobRes[e.Hash]; ok && os.SameFile(jobs[bi].info, e.info) &&
			res[bi].Status == StatusOK && res[bi].Size == e.Size {
			r := res[bi]
			r.Name = e.Name
			res[nblobs+i] = r
			return
		}
		res[nblobs+i] = verifyInRoot(root, e.Name, e.Hash)
	}); err != nil {
		return nil, err
	}
	return newReport(append(out, res...)), nil
}

// VerifyHashes verifies the bare blobs of the given hashes (for example the
// ones a session references). Duplicates are verified once.
func (s Store) VerifyHashes(ctx context.Context, hashes []Hash, workers int) (*Report, error) {
	seen := map[Hash]bool{}
	var jobs []Hash
	for _, h := range hashes {
		if !seen[h] {
			seen[h] = true
			jobs = append(jobs, h)
		}
	}
	res := make([]Result, len(jobs))
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		// No store at all: every blob is missing (or unreadable).
		for i, h := range jobs {
			res[i] = Result{Name: h.String(), Hash: h, Status: StatusMissing}
			if !errors.Is(err, fs.ErrNotExist) {
				res[i].Status, res[i].Err = StatusUnreadable, err.Error()
			}
		}
		return newReport(res), nil
	}
	defer root.Close()
	if err := runParallel(ctx, workers, jobs, func(i int, h Hash) {
		res[i] = verifyInRoot(root, h.String(), h)
	}); err != nil {
		return nil, err
	}
	return newReport(res), nil
}

// runParallel calls fn(i, items[i]) for every item on workers goroutines
// (2 if workers < 1) and returns ctx.Err() if cancelled.
func runParallel[T any](ctx context.Context, workers int, items []T, fn func(int, T)) error {
	if workers < 1 {
		workers = 2
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i, items[i])
			}
		}()
	}
	var err error
feed:
	for i := range items {
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	return err
}
