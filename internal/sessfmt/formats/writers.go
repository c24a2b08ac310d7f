package formats

import (
	fk "github.com/sessctl/sessctl/internal/fork"
	rp "github.com/sessctl/sessctl/internal/repair"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// The writing capabilities whose code reads a format through its package
// (so the format's package cannot call it): repair and fork of pi-family
// files and Claude Code transcripts. All hands them to pi.Writing and
// claude.Writing.
var (
	piWriters     = sessfmt.Writers{Repair: repairWith(rp.Pi), Fork: forkWith(fk.Pi)}
	claudeWriters = sessfmt.Writers{Repair: repairWith(rp.Claude), Fork: forkWith(fk.Claude)}
)

func repairWith(fn func(string, rp.Options) (*rp.Result, error)) sessfmt.RepairFunc {
	return func(path string, o sessfmt.RepairOptions) (*sessfmt.RepairResult, error) {
		r, err := fn(path, rp.Options{DryRun: o.DryRun, NoBackup: o.NoBackup, RebuildHeader: o.RebuildHeader,
			CloseToolCalls: o.CloseToolCalls, BridgeProgress: o.BridgeProgress})
		if err != nil {
			return nil, err
		}
		out := &sessfmt.RepairResult{Path: r.Path, Format: r.Format, DryRun: r.DryRun, Changed: r.Changed,
			Fixes: make([]sessfmt.RepairFix, 0, len(r.Fixes)), Rejected: r.Rejected, Sidecar: r.Sidecar,
			Backup: r.Backup, Remaining: r.Remaining}
		for _, f := range r.Fixes {
			out.Fixes = append(out.Fixes, sessfmt.RepairFix(f))
		}
		return out, nil
	}
}

func forkWith(fn func(string, fk.Options) (*fk.Result, error)) sessfmt.ForkFunc {
	return func(src string, o sessfmt.ForkOptions) (*sessfmt.ForkResult, error) {
		r, err := fn(src, fk.Options{At: o.At, Full: o.Full, Output: o.Output, DryRun: o.DryRun})
		if err != nil {
			return nil, err
		}
		return &sessfmt.ForkResult{Source: r.Source, Path: r.Path, SessionID: r.SessionID, At: r.At,
			Entries: r.Entries, Relinked: r.Relinked, LabelsKept: r.LabelsKept, DryRun: r.DryRun}, nil
	}
}
