package opencode

import (
	"os"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

var _ sessfmt.Filer = Format{}

// SessionFiles lists where a session lies: an `opencode export` file is its
// own transcript; a session in a database shares the database file (and its
// -wal) with every other session, so that is counted once, in the store's
// row, and the session's share is the bytes of its rows (the data of its
// session, message and part rows, in either schema generation: what its
// pages hold, less the page overhead); a session in a JSON storage tree
// shares the tree.
func (f Format) SessionFiles(ref sessfmt.Ref) ([]sessfmt.FileUse, error) {
	if ref.ID == "" {
		return []sessfmt.FileUse{{Path: ref.Path, Kind: "transcript"}}, nil
	}
	st, err := os.Stat(ref.Path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return []sessfmt.FileUse{{Path: ref.Path, Kind: "storage", Shared: ref.Path}}, nil
	}
	d, err := OpenDB(ref.Path)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var total int64
	for _, q := range []string{
		"SELECT coalesce(sum(length(data)), 0) FROM message WHERE session_id = ?",
		"SELECT coalesce(sum(length(data)), 0) FROM part WHERE session_id = ?",
		"SELECT coalesce(sum(length(data)), 0) FROM session_message WHERE session_id = ?",
	} {
		var n int64
		if err := d.SQL().QueryRow(q, ref.ID).Scan(&n); err == nil { // a table the generation lacks: 0
			total += n
		}
	}
	return []sessfmt.FileUse{{Path: ref.Path, Kind: "database", Bytes: total, Shared: ref.Path}}, nil
}
