package safewrite

import "github.com/sessctl/sessctl/internal/fsx"

// renameNoReplace renames old to new only if new does not exist; it returns
// an error matching fs.ErrExist if new exists. It is the fallback where
// hard links are not supported. Per OS (see fsx.RenameNoReplace): Linux
// renameat2(RENAME_NOREPLACE), macOS renamex_np(RENAME_EXCL), Windows
// MoveFileEx without MOVEFILE_REPLACE_EXISTING; elsewhere link + unlink,
// which fails where links are not supported: nothing is replaced then.
func renameNoReplace(oldpath, newpath string) error {
	return fsx.RenameNoReplace(oldpath, newpath)
}
