//go:build !unix

package du

import "os"

type inode struct{ dev, ino uint64 }

func inodeOf(os.FileInfo) (inode, bool) { return inode{}, false }
