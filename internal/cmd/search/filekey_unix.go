//go:build unix

package search

import (
	"os"
	"syscall"
)

// fileKey names a file whatever its path: device and inode.
type fileKey struct{ dev, ino uint64 }

// keyOf is the key of the file st describes (ok false when the system
// gives none).
func keyOf(st os.FileInfo) (fileKey, bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{uint64(s.Dev), uint64(s.Ino)}, true //nolint:unconvert // types differ by OS
}
