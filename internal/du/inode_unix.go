//go:build unix

package du

import (
	"os"
	"syscall"
)

type inode struct{ dev, ino uint64 }

// inodeOf identifies the file behind st, so that hard links (sessctl's
// backups are links to the file they keep) are counted once.
func inodeOf(st os.FileInfo) (inode, bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return inode{}, false
	}
	return inode{uint64(s.Dev), uint64(s.Ino)}, true
}
