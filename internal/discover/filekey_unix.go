//go:build unix

package discover

import (
	"os"
	"syscall"
)

type fileKey struct{ dev, ino uint64 }

func keyOf(st os.FileInfo) (fileKey, bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{uint64(s.Dev), uint64(s.Ino)}, true //nolint:unconvert // types differ by OS
}
