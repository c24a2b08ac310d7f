// Package prune implements `sessctl prune`: archive (or delete) old,
// large, surplus or empty sessions, never live ones.
package prune

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/prune"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of prune.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	OlderThan, LargerThan, Grace string
	Keep                         int
	Empty                        bool
	Agents                       []string
	Project                      string
	Apply, Delete, Force         bool
	Roots                        []string
	NoCache                      bool

	Now   func() time.Time
	Getwd func() (string, error)
}

// NewCmd builds the prune command; runF replaces Run in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f, Now: time.Now, Getwd: os.Getwd}
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Archive (or delete) old, large, surplus or empty sessions",
		Long: `Select sessions and move them, with everything that belongs to them, into
sessctl's archive ($XDG_DATA_HOME/sessctl/archive), from which
` + "`sessctl restore`" + ` puts them back byte for byte.

Every selector given must hold: --older-than (last activity), --larger-than
(the session with everything that belongs to it: Claude Code subagents,
tool-results/, file-history/, …), --keep N (all but the N most recent of
each project), --empty (no message). At least one is required; --agent and
--project narrow the set.

Without --apply nothing changes: the sessions that would go and the space
freed are listed (exit 3 when there are any). --delete removes instead of
archiving.

Never pruned, even with --delete: a live session (an agent lock held, a
process with one of its files open, Claude Code's sessions/<pid>.json
naming it, a file modified within --grace), and a session that a session
which stays names as its parent (unless --force). OpenCode and OpenClaw
sessions live in the agent's own database or index: they are listed with
the agent's command that removes them.`,
		Example: `  sessctl prune --older-than 90d
  sessctl prune --keep 20 --agent claude --apply
  sessctl prune --empty --apply`,
		Args: cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.JSON = f.JSON
			if !cmd.Flags().Changed("keep") {
				opts.Keep = -1
			} else if opts.Keep < 0 {
				return cmdutil.FlagErrorf("--keep must be 0 or more")
			}
			if err := cmdutil.CheckAgents(opts.Agents); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.OlderThan, "older-than", "", "Last activity longer ago than `DURATION` (30m, 12h, 90d, 2w)")
	fl.StringVar(&opts.LargerThan, "larger-than", "", "Larger than `SIZE` with what belongs to it (500K, 20M, 1.5G; bytes without a unit)")
	fl.IntVar(&opts.Keep, "keep", 0, "Keep the `N` most recent sessions of each project, select the rest")
	fl.BoolVar(&opts.Empty, "empty", false, "Sessions with no conversation (no message)")
	cmdutil.AddSessionFilterFlags(fl, &opts.Agents, &opts.Project)
	fl.StringVar(&opts.Grace, "grace", "1h", "A session with a file modified within `DURATION` counts as live")
	fl.BoolVar(&opts.Apply, "apply", false, "Archive (or delete) the selected sessions (default: list them, change nothing)")
	fl.BoolVar(&opts.Delete, "delete", false, "Delete instead of archiving (live and lineage rules still apply)")
	fl.BoolVar(&opts.Force, "force", false, "Also prune sessions that a staying session names as its parent")
	cmdutil.AddRootFlags(fl, &opts.Roots, &opts.NoCache)
	return cmd
}

// ParseDuration accepts Go durations and d (days) and w (weeks).
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	for suf, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if n, ok := strings.CutSuffix(s, suf); ok {
			v, err := strconv.ParseFloat(n, 64)
			if err != nil || v < 0 {
				return 0, fmt.Errorf("invalid duration %q", s)
			}
			return time.Duration(v * float64(unit)), nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("invalid duration %q (use 30m, 12h, 90d, 2w)", s)
	}
	return d, nil
}

// ParseSize accepts bytes or a number with K, M, G, T (powers of 1024,
// an optional B or iB).
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("invalid size %q (use 500K, 20M, 1.5G or bytes)", s)
	}
	return int64(v * float64(mult)), nil
}

// Report is prune's JSON output.
type Report struct {
	DryRun      bool               `json:"dryRun"`
	Delete      bool               `json:"delete"`
	ArchiveRoot string             `json:"archiveRoot,omitempty"`
	Sessions    []*prune.Candidate `json:"sessions"`
	Frees       int64              `json:"frees"`
	Counts      map[string]int     `json:"counts"`
}

// Run runs prune.
func Run(opts *Options) error {
	var c prune.Criteria
	c.Keep, c.Empty, c.Force = opts.Keep, opts.Empty, opts.Force
	var err error
	if opts.OlderThan != "" {
		if c.OlderThan, err = ParseDuration(opts.OlderThan); err != nil {
			return cmdutil.FlagErrorf("--older-than: %v", err)
		}
	}
	if opts.LargerThan != "" {
		if c.LargerThan, err = ParseSize(opts.LargerThan); err != nil {
			return cmdutil.FlagErrorf("--larger-than: %v", err)
		}
	}
	grace, err := ParseDuration(opts.Grace)
	if err != nil {
		return cmdutil.FlagErrorf("--grace: %v", err)
	}
	if !c.Any() {
		return cmdutil.FlagErrorf("say what to prune: --older-than, --larger-than, --keep or --empty")
	}
	f := opts.Factory
	sopts, err := f.DiscoverOptions(opts.Roots, opts.NoCache)
	if err != nil {
		return err
	}
	all := discover.ScanAll(sopts)
	if !opts.IO.Quiet() {
		for _, w := range all.Warnings {
			fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s\n", render.EscapeLine(w.Error()))
		}
	}
	var scoped []*discover.Session
	for _, s := range all.Sessions {
		if len(opts.Agents) == 0 || contains(opts.Agents, s.Agent) {
			scoped = append(scoped, s)
		}
	}
	sf := cmdutil.SessionFilter{Project: opts.Project, AllProjects: opts.Project == "", All: true, Now: opts.Now, Getwd: opts.Getwd}
	scoped, err = sf.Apply(scoped)
	if err != nil {
		return err
	}
	now := opts.Now()
	c.Files = func(s *discover.Session) ([]string, int) { return formatFiles(f.Registry, s) }
	cands := prune.Select(scoped, c, now)
	claudeDirs := discover.ClaudeConfigDirs(all.Roots)
	prune.Guard(cands, all.Sessions, prune.NewLive(claudeDirs, grace, now), opts.Force, opts.Delete)
	rep := Report{DryRun: !opts.Apply, Delete: opts.Delete, Sessions: cands, Counts: map[string]int{}}
	if rep.Sessions == nil {
		rep.Sessions = []*prune.Candidate{}
	}
	if !opts.Delete {
		rep.ArchiveRoot = filepath.Join(sopts.Env.DataHome(), "sessctl", "archive")
	}
	failed := 0
	if opts.Apply {
		failed = prune.Apply(cands, rep.ArchiveRoot, opts.Delete, now)
	}
	for _, cd := range cands {
		rep.Counts[cd.Status]++
		switch cd.Status {
		case "would-archive", "would-delete", "archived", "deleted":
			rep.Frees += cd.Bytes
		}
	}
	if opts.JSON {
		if err := render.JSON(opts.IO.Out, rep, opts.IO.IsStdoutTTY()); err != nil {
			return err
		}
	} else {
		writeText(opts.IO.Out, &rep, opts.IO.IsStdoutTTY())
	}
	switch {
	case failed > 0:
		return fmt.Errorf("%d sessions could not be pruned (see above)", failed)
	case !opts.Apply && rep.Counts["would-archive"]+rep.Counts["would-delete"] > 0:
		return &cmdutil.ProblemsError{}
	}
	return nil
}

// formatFiles asks the session's format what belongs to it (sessfmt.Filer):
// files and folders it owns alone, and the number of shared blobs.
func formatFiles(reg *sessfmt.Registry, s *discover.Session) ([]string, int) {
	if reg == nil {
		return nil, 0
	}
	fm, ok := reg.Format(s.Format).(sessfmt.Filer)
	if !ok {
		return nil, 0
	}
	uses, err := fm.SessionFiles(sessfmt.Ref{Format: s.Format, Agent: s.Agent, Path: s.Path, ID: s.ID})
	if err != nil {
		return nil, 0
	}
	var paths []string
	shared := 0
	for _, u := range uses {
		if u.Shared != "" {
			shared++
			continue
		}
		paths = append(paths, u.Path)
	}
	return paths, shared
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// HumanSize prints a byte count with a binary unit.
func HumanSize(n int64) string {
	const u = 1024
	if n < u {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n), -1
	for v >= u && i < 3 {
		v /= u
		i++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGT"[i])
}

func writeText(w io.Writer, rep *Report, tty bool) {
	e := render.EscapeLine
	size := func(n int64) string {
		if tty {
			return HumanSize(n)
		}
		return strconv.FormatInt(n, 10)
	}
	for _, c := range rep.Sessions {
		line := fmt.Sprintf("%-13s %-8s %s  %s  %s  %s  %s", c.Status, c.Agent, e(c.ID), size(c.Bytes),
			c.Modified.UTC().Format(time.RFC3339), e(c.Cwd), e(c.Path))
		fmt.Fprintln(w, line)
		if len(c.Files) > 1 {
			fmt.Fprintf(w, "              %d files belong to it\n", len(c.Files))
		}
		if c.SharedBlobs > 0 {
			fmt.Fprintf(w, "              %d shared blobs it refers to stay in their store (sessctl blob gc)\n", c.SharedBlobs)
		}
		if c.Why != "" {
			fmt.Fprintf(w, "              %s\n", e(c.Why))
		}
		if c.Command != "" {
			fmt.Fprintf(w, "              remove it with: %s\n", e(c.Command))
		}
		if c.Archive != "" {
			fmt.Fprintf(w, "              archived in %s\n", e(c.Archive))
		}
	}
	n := rep.Counts["would-archive"] + rep.Counts["would-delete"] + rep.Counts["archived"] + rep.Counts["deleted"]
	verb := map[bool]string{true: "would free", false: "freed"}[rep.DryRun]
	fmt.Fprintf(w, "%d sessions, %s %s", n, verb, size(rep.Frees))
	if k := rep.Counts["refused"]; k > 0 {
		fmt.Fprintf(w, "; %d refused", k)
	}
	if k := rep.Counts["report-only"]; k > 0 {
		fmt.Fprintf(w, "; %d kept by their agent (use its command)", k)
	}
	if k := rep.Counts["failed"]; k > 0 {
		fmt.Fprintf(w, "; %d failed", k)
	}
	fmt.Fprintln(w)
	if rep.DryRun && n > 0 {
		fmt.Fprintln(w, "nothing changed (dry run); run again with --apply")
	}
}
