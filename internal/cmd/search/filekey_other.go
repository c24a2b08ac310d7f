//go:build !unix

package search

import "os"

// fileKey names a file whatever its path (none on this system: files are
// told apart by their resolved path).
type fileKey struct{}

func keyOf(os.FileInfo) (fileKey, bool) { return fileKey{}, false }
