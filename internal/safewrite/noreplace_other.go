//go:build !linux

package safewrite

import "errors"

// renameNoReplace is only available on Linux; elsewhere publishing a new
// file needs hard links.
func renameNoReplace(oldpath, newpath string) error {
	return errors.ErrUnsupported
}
