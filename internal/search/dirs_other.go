//go:build !linux

package search

import "os"

// Dirs looks files up by their whole path where fstatat and openat are not
// used (see the Linux version).
type Dirs struct{}

// NewDirs returns a Dirs.
func NewDirs() *Dirs { return &Dirs{} }

// Stat is os.Stat.
func (d *Dirs) Stat(path string) (os.FileInfo, error) { return os.Stat(path) }

func (d *Dirs) open(path string) (*rawFile, error) { return openRaw(path) }

// Close does nothing.
func (d *Dirs) Close() {}
