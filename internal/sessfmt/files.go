package sessfmt

// FileUse is something on disk that belongs to a session: its transcript,
// the files the agent keeps for it elsewhere, its backups.
type FileUse struct {
	// Path is the file or folder (a folder's size is everything in it).
	Path string `json:"path"`
	// Kind says what it is: transcript, subagents, tool-results,
	// session-folder, file-history, session-env, debug, blob, database,
	// sessctl-backup, sessctl-sidecar, agent-backup.
	Kind string `json:"kind"`
	// Bytes is its size on disk as the format measured it (0: du measures
	// Path).
	Bytes int64 `json:"bytes"`
	// Shared names a store several sessions use (a blob store folder, a
	// database file). A shared file is counted once, in the store's own
	// row; Bytes is then this session's share of it (its blobs, its rows),
	// shown with the session but not added again.
	Shared string `json:"shared,omitempty"`
}

// Filer is a format that can list what belongs to a session without
// opening it: du asks it for every session discovery found. Files that
// sessctl itself writes beside a session file (backups, rejected-line
// sidecars) and agents' .bak copies are found by du for every format.
type Filer interface {
	SessionFiles(ref Ref) ([]FileUse, error)
}
