//go:build unix

package discover

import (
	"os"
	"syscall"
)

// FileKey names a file whatever its path: its device and inode. list,
// discovery and search tell one file under two names (a symlink, a hard
// link) by it.
type FileKey struct{ dev, ino uint64 }

// KeyOf is the key of the file st describes (ok false when the system
// gives none).
func KeyOf(st os.FileInfo) (FileKey, bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return FileKey{}, false
	}
	return FileKey{uint64(s.Dev), uint64(s.Ino)}, true //nolint:unconvert // types differ by OS
}
