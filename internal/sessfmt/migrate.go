package sessfmt

// MigrateOptions are migrate's flags.
type MigrateOptions struct {
	// DryRun changes nothing (migrate --check and --dry-run).
	DryRun bool
	// NoBackup keeps no .bak copy of migrated files.
	NoBackup bool
}

// MigrateResult reports the migration of one session file.
type MigrateResult struct {
	// Needed says the file was (or would be) migrated; false: current.
	Needed      bool
	FromVersion int
	ToVersion   int
	// Changes says what changed, in a few words.
	Changes string
	// Backup is the backup written ("" for none).
	Backup string
	// Skipped, when not "", says why the file was left alone (no valid
	// header, …): not an error.
	Skipped string
}

// Migrator is a session whose file format has versions that migrate can
// bring up to date: `sessctl migrate`.
type Migrator interface {
	Migrate(opts MigrateOptions) (*MigrateResult, error)
}
