// Package repair implements `sessctl repair`: fix what check finds, safely.
package repair

import (
	"errors"
	"fmt"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of repair.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	Sessions []string
	Repair   sessfmt.RepairOptions
}

// NewCmd builds the repair command.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "repair <session>...",
		Short: "Fix what check finds, safely (atomic write, backup, nothing lost)",
		Long: `Repair session files and list each fix:

  - a torn last line, malformed and non-object lines move to a sidecar
    <file>.rejected.jsonl with their original line numbers (two objects
    glued on one line are split; a complete entry written after a torn
    fragment is kept);
  - NUL runs and a BOM are removed;
  - a missing header is rebuilt from the file name and its folder, or a
    header found later in the file moved to the top, only with
    --rebuild-header;
  - duplicate ids: every occurrence but the last gets a fresh id, and the
    references written after it are pointed at it;
  - entries that are their own parent, orphans and cycles are re-linked (pi:
    to the parent of a label entry a fork dropped when that is the cause,
    else to the previous entry in file order; cycles are broken at the entry
    whose parent comes latest in the file);
  - --close-tool-calls appends error results for unanswered tool calls at
    the leaf.

Claude Code transcripts: a uuid written again for the same record (same
type, parentUuid and isSidechain) is Claude Code's update and is left
alone; different records sharing a uuid are renamed as above; records whose
parent is a legacy progress line get its nearest non-progress ancestor;
self-parents, dangling parents and cycles are re-linked to the nearest
record of the same isSidechain at most 5 s earlier (as Claude Code's loader
does), else the previous one in file order; --close-tool-calls appends one
user line of error tool_results at the leaf Claude Code resumes.

WARNING: repair rewrites files. It is safe by design: every line that was
valid JSON stays byte for byte (or changes only in the id fields a fix
names) or moves to the sidecar; the new content is written to a temp file,
re-read and checked before it replaces the old one atomically; a backup
<file>.sessctl-<UTC time>.bak is kept unless --no-backup; if the agent
writes the file meanwhile or holds its lock, nothing is changed. Still, run
it with --dry-run first, and while the agent is not running.

Exit status: 0 repaired or nothing to repair; 3 with --dry-run when
something would change; 1 a file could not be read, repaired or written;
2 usage error.`,
		Args: cmdutil.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Sessions = args
			opts.JSON = f.JSON
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVarP(&opts.Repair.DryRun, "dry-run", "n", false, "Change nothing; say what would change")
	fl.BoolVar(&opts.Repair.NoBackup, "no-backup", false, "Do not keep a .bak copy of the old file")
	fl.BoolVar(&opts.Repair.RebuildHeader, "rebuild-header", false, "Rebuild a missing session header from the file name and its folder")
	fl.BoolVar(&opts.Repair.CloseToolCalls, "close-tool-calls", false, "Append error results for tool calls left without one at the leaf")
	fl.BoolVar(&opts.Repair.BridgeProgress, "bridge-progress", false, "Claude Code: re-point records hanging on legacy progress lines at their nearest non-progress ancestor (check notes these as info only)")
	return cmd
}

// Run runs repair.
func Run(opts *Options) error {
	var results []*sessfmt.RepairResult
	failed, wouldChange := 0, false
	st := render.NewStyles(opts.IO)
	for _, arg := range opts.Sessions {
		res, err := repairOne(opts, arg)
		if err != nil {
			var ue *cmdutil.UsageError
			if errors.As(err, &ue) {
				return err
			}
			if errors.Is(err, sessfmt.ErrUnsupported) { // it names the session itself
				fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s\n", render.EscapeLine(err.Error()))
			} else {
				fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s: %v\n", render.EscapeLine(arg), render.EscapeLine(err.Error()))
			}
			failed++
			continue
		}
		results = append(results, res)
		if res.Changed && res.DryRun {
			wouldChange = true
		}
		if !opts.JSON {
			writeText(opts, res, st)
		}
	}
	if opts.JSON {
		if results == nil {
			results = []*sessfmt.RepairResult{}
		}
		if err := render.JSON(opts.IO.Out, results, opts.IO.IsStdoutTTY()); err != nil {
			return err
		}
	}
	switch {
	case failed > 0:
		return cmdutil.SilentError
	case wouldChange:
		return cmdutil.ErrProblems
	}
	return nil
}

// repairOne opens the session arg names through the registry and repairs
// it when its format can.
func repairOne(opts *Options, arg string) (*sessfmt.RepairResult, error) {
	s, err := opts.Factory.OpenSession(arg, sessfmt.OpenOptions{})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	r, ok := s.(sessfmt.Repairer)
	if !ok {
		return nil, sessfmt.Unsupported(s, "repair")
	}
	return r.Repair(opts.Repair)
}

func writeText(opts *Options, r *sessfmt.RepairResult, st render.Styles) {
	w := opts.IO.Out
	path := render.EscapeLine(r.Path)
	switch {
	case !r.Changed:
		fmt.Fprintf(w, "%s: nothing to repair\n", path)
	case r.DryRun:
		fmt.Fprintf(w, "%s: would make %d %s (dry run, nothing changed):\n", path, len(r.Fixes), plural(len(r.Fixes), "fix", "fixes"))
	default:
		fmt.Fprintf(w, "%s: %d %s:\n", path, len(r.Fixes), plural(len(r.Fixes), "fix", "fixes"))
	}
	for _, f := range r.Fixes {
		loc := "appended"
		if f.Line > 0 {
			loc = fmt.Sprintf("line %d", f.Line)
		}
		fmt.Fprintf(w, "  %-10s %-16s %s\n", loc, f.Action, render.EscapeLine(f.Detail))
	}
	if r.Rejected > 0 && r.Sidecar != "" {
		verb := "moved"
		if r.DryRun {
			verb = "would move"
		}
		fmt.Fprintf(w, "  %s %d %s to %s\n", verb, r.Rejected, plural(r.Rejected, "line", "lines"), render.EscapeLine(r.Sidecar))
	}
	if r.Backup != "" {
		if r.DryRun {
			fmt.Fprintf(w, "  backup would be %s\n", render.EscapeLine(r.Backup))
		} else {
			fmt.Fprintf(w, "  backup: %s\n", render.EscapeLine(r.Backup))
		}
	}
	for _, p := range r.Remaining {
		if p.Severity == problem.Info && p.Code != outdatedVersion {
			continue
		}
		loc := ""
		if p.Line > 0 {
			loc = fmt.Sprintf("line %d: ", p.Line)
		}
		fmt.Fprintln(w, st.Warn.Sprintf("  left as is: %s%s [%s]", loc, render.EscapeLine(p.Message), p.Code))
		if p.Code == outdatedVersion && p.Fix != "" {
			fmt.Fprintf(w, "    fix: %s\n", render.EscapeLine(p.Fix))
		}
	}
}

// outdatedVersion is the code of a pi-family file's version notice (v1/v2,
// read as the agent migrates it in memory): repair never changes the
// version, so it always says which command does.
const outdatedVersion = "outdated-version"

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
