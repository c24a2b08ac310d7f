package pi

import (
	"errors"
	"fmt"

	mg "github.com/sessctl/sessctl/internal/migrate"
	"github.com/sessctl/sessctl/internal/safewrite"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

var _ sessfmt.Migrator = (*Session)(nil)

// Migrate brings the file from format version 1 or 2 to version 3 exactly
// as pi does when it opens it (sessfmt.Migrator), keeping every other byte;
// version 3 files are current. A file without a valid header is skipped.
// OpenClaw transcripts are written under OpenClaw's lock too.
func (s *Session) Migrate(opts sessfmt.MigrateOptions) (*sessfmt.MigrateResult, error) {
	path := s.ref.Path
	res, err := mg.File(path, mg.FileOptions{Write: safewrite.Options{DryRun: opts.DryRun, NoBackup: opts.NoBackup,
		OpenClawLock: safewrite.IsOpenClawTranscript(path)}})
	if err != nil {
		if errors.Is(err, mg.ErrNoHeader) {
			return &sessfmt.MigrateResult{Skipped: "no valid session header (sessctl repair --rebuild-header first)"}, nil
		}
		return nil, err
	}
	sum := res.Summary
	out := &sessfmt.MigrateResult{Needed: sum.Needed, FromVersion: sum.FromVersion, ToVersion: sum.ToVersion}
	if !sum.Needed {
		return out, nil
	}
	out.Changes = fmt.Sprintf("%d lines changed, %d entries given ids, %d compactions mapped, %d roles renamed",
		sum.LinesChanged, sum.EntriesReIDed, sum.CompactionsMapped, sum.RolesRenamed)
	if res.Write != nil {
		out.Backup = res.Write.Backup
	}
	return out, nil
}
