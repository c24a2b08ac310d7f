//go:build !unix

package discover

import "os"

type fileKey struct{ dev, ino uint64 }

// keyOf has no inode on this system: folders are not de-duplicated, and
// the depth limit ends symlink loops.
func keyOf(os.FileInfo) (fileKey, bool) { return fileKey{}, false }
