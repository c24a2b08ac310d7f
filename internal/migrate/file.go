package migrate

import (
	"bufio"
	"fmt"
	"io"

	"github.com/sessctl/sessctl/internal/fsx"
	"github.com/sessctl/sessctl/internal/safewrite"
)

// FileOptions controls File.
type FileOptions struct {
	Migrate Options
	// Write is passed to safewrite.Begin (NoBackup, DryRun, locks…);
	// its Snapshot is set by File.
	Write safewrite.Options
}

// FileResult reports File.
type FileResult struct {
	Path    string            `json:"path"`
	Summary Summary           `json:"summary"`
	Write   *safewrite.Result `json:"write,omitempty"` // nil when nothing needed writing
}

// EachLine calls fn for every line of the first size bytes of path (lines
// keep their "\n"; no length limit).
func EachLine(path string, size int64, fn func([]byte) error) error {
	f, err := fsx.OpenRead(path) // shares delete access: the file is renamed over while open (Windows)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(io.LimitReader(f, size), 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			if ferr := fn(line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// File migrates the session file at path in place, streaming it twice.
// It snapshots the file before reading, reads exactly the bytes the
// snapshot covers, and writes through safewrite (backup, locks, freshness
// check, atomic rename; DryRun writes nothing). A file already at version
// 3 is not touched (Write is nil). A file without a valid header returns
// ErrNoHeader and is not touched.
func File(path string, opts FileOptions) (*FileResult, error) {
	snap, err := safewrite.Stat(path)
	if err != nil {
		return nil, err
	}
	res := &FileResult{Path: snap.Path}
	m := New(opts.Migrate)
	if err := EachLine(snap.Path, snap.Size, m.Observe); err != nil {
		return nil, err
	}
	sum, err := m.Plan()
	res.Summary = sum
	if err != nil {
		return res, fmt.Errorf("%s: %w", snap.Path, err)
	}
	if !sum.Needed {
		return res, nil
	}
	wo := opts.Write
	wo.Snapshot = &snap
	w, err := safewrite.Begin(snap.Path, wo)
	if err != nil {
		return res, err
	}
	err = EachLine(snap.Path, snap.Size, func(line []byte) error {
		out, err := m.Line(line)
		if err != nil {
			return err
		}
		_, err = w.Write(out)
		return err
	})
	res.Summary = m.Summary()
	if err != nil {
		w.Abort()
		return res, err
	}
	wr, err := w.Commit()
	if err != nil {
		return res, err
	}
	res.Write = wr
	return res, nil
}
