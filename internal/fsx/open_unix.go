//go:build !windows

package fsx

import "os"

// OpenRead opens a file for reading; on Unix it is os.Open. Use it for a
// file that will be replaced (renamed over) while it is still open.
func OpenRead(path string) (*os.File, error) { return os.Open(path) }

// Replace renames oldpath to newpath, replacing newpath if it exists: on
// Unix it is os.Rename (rename(2), atomic).
func Replace(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }
