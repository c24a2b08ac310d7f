package sessfmt

import "github.com/sessctl/sessctl/internal/problem"

// RepairOptions are repair's flags.
type RepairOptions struct {
	// DryRun changes nothing and reports what would change.
	DryRun bool
	// NoBackup keeps no .bak copy of the old file.
	NoBackup bool
	// RebuildHeader rebuilds a missing pi-family header from the file name
	// and its folder.
	RebuildHeader bool
	// CloseToolCalls appends error results for tool calls left without one
	// at the leaf.
	CloseToolCalls bool
	// BridgeProgress (Claude Code) re-points records that hang on a legacy
	// progress line at their nearest non-progress ancestor.
	BridgeProgress bool
}

// RepairFix is one change repair made (or would make).
type RepairFix struct {
	// Line is the original line number; 0 for an appended line.
	Line int `json:"line"`
	// Code is the problem it fixes.
	Code   string `json:"code"`
	Action string `json:"action"`
	ID     string `json:"id,omitempty"`
	Detail string `json:"detail"`
}

// RepairResult reports the repair of one session file. Its JSON form is
// what `repair --json` prints for the file.
type RepairResult struct {
	Path     string      `json:"path"`
	Format   string      `json:"format"`
	DryRun   bool        `json:"dryRun"`
	Changed  bool        `json:"changed"`
	Fixes    []RepairFix `json:"fixes"`
	Rejected int         `json:"rejectedLines"`
	Sidecar  string      `json:"sidecar,omitempty"`
	Backup   string      `json:"backup,omitempty"`
	// Remaining are the problems repair leaves as they are.
	Remaining []problem.Problem `json:"remaining"`
}

// Repairer is a session repair can fix: `sessctl repair`.
type Repairer interface {
	Repair(opts RepairOptions) (*RepairResult, error)
}

// RepairFunc repairs the session file at path. A format's package cannot
// hold its repair code (that code reads the format through the package),
// so the one list of formats hands it in (see internal/sessfmt/formats);
// the format's Session implements Repairer with it.
type RepairFunc func(path string, opts RepairOptions) (*RepairResult, error)
