//go:build !unix

package discover

import "os"

// FileKey names a file whatever its path: its device and inode. list,
// discovery and search tell one file under two names (a symlink, a hard
// link) by it.
type FileKey struct{ dev, ino uint64 }

// KeyOf has no inode on this system: folders are not de-duplicated, and
// the depth limit ends symlink loops.
func KeyOf(os.FileInfo) (FileKey, bool) { return FileKey{}, false }
