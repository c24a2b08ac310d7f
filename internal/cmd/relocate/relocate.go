// Package relocate implements `sessctl relocate OLD NEW`: move the session
// history of a project folder that was renamed or moved.
package relocate

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/prune"
	"github.com/sessctl/sessctl/internal/relocate"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/spf13/cobra"
)

// Options are the inputs of relocate.
type Options struct {
	IO       *iostreams.IOStreams
	Factory  *cmdutil.Factory
	JSON     bool
	Old, New string
	Apply    bool
	NoBackup bool
	Roots    []string
	// Checkpoint is handed to relocate.Apply (crash tests).
	Checkpoint func(string)
}

// crashEnv names the checkpoint at which the process kills itself with
// SIGKILL (crash tests of the built binary only; see docs/relocate.md).
const crashEnv = "SESSCTL_TEST_CRASH_AT"

// NewCmd builds the relocate command; runF replaces Run in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "relocate OLD NEW",
		Short: "Move the sessions of a project folder that moved from OLD to NEW",
		Long: `When a project folder is renamed or moved, agents that key sessions by their
working directory no longer find its history. relocate moves it:

  pi, oh-my-pi, xcsh  session files move from OLD's project folder to NEW's
                      (merged if it exists) and the header's cwd (and any
                      header path under OLD) is rewritten
  Claude Code         projects/<encoded OLD>/ is merged into <encoded NEW>/
                      (never nested) and the cwd of every record under OLD
                      is rewritten at path boundaries; every other byte kept
  OpenCode, OpenClaw  reported only, with the agent's own way to move it

Claude Code's ~/.claude.json project entry and history.jsonl lines are
reported, not changed.

Without --apply nothing changes: the full plan is printed (exit 3 when there
is something to do). --apply runs it step by step, each step atomic (files
are rewritten through sessctl's safe writer, with a backup unless
--no-backup, and refused while an agent holds the file's lock). A second
run is a no-op; a run killed midway is completed by the next one.`,
		Example: `  sessctl relocate ~/src/old-name ~/src/new-name
  sessctl relocate --apply ~/src/old-name ~/src/new-name`,
		Args: cmdutil.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.JSON = f.JSON
			var err error
			if opts.Old, err = relocate.Clean(args[0]); err != nil {
				return err
			}
			if opts.New, err = relocate.Clean(args[1]); err != nil {
				return err
			}
			// Claude Code names folders after the real path: an existing
			// NEW is resolved (OLD usually no longer exists).
			if real, err := filepath.EvalSymlinks(opts.New); err == nil {
				opts.New = real
			}
			if opts.Old == opts.New || relocate.Under(opts.New, opts.Old) || relocate.Under(opts.Old, opts.New) {
				return cmdutil.FlagErrorf("OLD and NEW must be two folders, neither inside the other")
			}
			if at := f.Getenv(crashEnv); at != "" && opts.Checkpoint == nil {
				opts.Checkpoint = func(s string) {
					if s == at {
						// Die at once, as a crash would: SIGKILL on Unix,
						// TerminateProcess on Windows.
						if p, err := os.FindProcess(os.Getpid()); err == nil {
							p.Kill()
						}
					}
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.Apply, "apply", false, "Carry the plan out (default: print it and change nothing)")
	fl.BoolVar(&opts.NoBackup, "no-backup", false, "Keep no backup of rewritten session files")
	fl.StringArrayVar(&opts.Roots, "root", nil, "Extra session root `KIND=PATH` (repeatable)")
	return cmd
}

// Run plans and, with --apply, carries out the relocation.
func Run(opts *Options) error {
	f := opts.Factory
	sopts, err := f.DiscoverOptions(opts.Roots, false)
	if err != nil {
		return err
	}
	res := discover.ScanAll(sopts)
	if !opts.IO.Quiet() {
		for _, w := range res.Warnings {
			fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s\n", render.EscapeLine(w.Error()))
		}
	}
	in := relocate.Input{Old: opts.Old, New: opts.New, Sessions: res.Sessions, Env: sopts.Env, Roots: res.Roots}
	if f.Registry != nil {
		in.Formats = f.Registry.Formats() // the formats name their project folders
	}
	plan, err := relocate.Make(in)
	if err != nil {
		return cmdutil.FlagErrorf("%v", err)
	}
	failed := 0
	if opts.Apply {
		claudeDirs := discover.ClaudeConfigDirs(res.Roots)
		live := prune.NewLive(claudeDirs, 0, time.Now())
		isLive := func(agent, path string) string {
			id := ""
			if agent == "claude" {
				id = strings.TrimSuffix(filepath.Base(path), ".jsonl")
			}
			var files []string
			if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() {
				files = []string{path}
			}
			return live.Why(agent, id, files)
		}
		failed = relocate.Apply(plan, relocate.Options{NoBackup: opts.NoBackup, Checkpoint: opts.Checkpoint, Live: isLive})
	}
	if opts.JSON {
		if err := render.JSON(opts.IO.Out, plan, opts.IO.IsStdoutTTY()); err != nil {
			return err
		}
	} else {
		writeText(opts.IO.Out, plan, opts.Apply)
	}
	switch {
	case failed > 0:
		return fmt.Errorf("%d of %d steps failed (see above); run relocate again once the cause is fixed", failed, len(plan.Steps))
	case !opts.Apply && len(plan.Steps) > 0:
		return &cmdutil.ProblemsError{}
	}
	return nil
}

func writeText(w io.Writer, plan *relocate.Plan, apply bool) {
	e := render.EscapeLine
	verb := "plan"
	if apply {
		verb = "relocated"
	}
	fmt.Fprintf(w, "%s %s → %s: %d sessions, %d steps\n", verb, e(plan.Old), e(plan.New), plan.Sessions, len(plan.Steps))
	for i, st := range plan.Steps {
		line := fmt.Sprintf("%3d  %-10s %-7s %s", i+1, st.Action, st.Agent, e(st.Path))
		if st.To != "" {
			line += " → " + e(st.To)
		}
		if st.Detail != "" {
			line += "  (" + e(st.Detail) + ")"
		}
		if apply {
			line += "  " + st.Status
			if st.Error != "" {
				line += ": " + e(st.Error)
			}
		}
		fmt.Fprintln(w, line)
	}
	for _, r := range plan.Reports {
		fmt.Fprintf(w, "note %-7s %s: %s\n       %s\n", r.Agent, e(r.Path), e(r.What), e(r.How))
	}
	if !apply && len(plan.Steps) > 0 {
		fmt.Fprintln(w, "nothing changed (dry run); run again with --apply to carry the plan out")
	}
}
