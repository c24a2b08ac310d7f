//go:build !linux

package search

import "os"

// Dirs looks files up by their whole path where fstatat and openat are not
// used (see the Linux version).
type Dirs struct{}

// NewDirs returns a Dirs.
func NewDirs() *Dirs { return &Dirs{} }

func (d *Dirs) open(path string) (*rawFile, error) { return openRaw(path) }

// OpenStat stats path (os.Stat) and, when it is a regular file, opens it
// to be searched; the file is nil otherwise or when it cannot be opened.
// The caller hands the file to the search in Target.Opened, or closes it.
func (d *Dirs) OpenStat(path string) (*Opened, os.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil, st, err
	}
	f, err := openRaw(path)
	if err != nil {
		return nil, st, nil
	}
	return &Opened{f: f}, st, nil
}

// Close does nothing.
func (d *Dirs) Close() {}
