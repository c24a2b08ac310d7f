//go:build unix

package fsx

import "os"

// CheckNoFollow is for files opened with NoFollow; on Unix the open itself
// refused a symbolic link (ELOOP), so there is nothing left to check.
func CheckNoFollow(f *os.File) error { return nil }
