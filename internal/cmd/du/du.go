// Package du implements `sessctl du`: disk use per agent, project and
// session, with what belongs to a session elsewhere.
package du

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/du"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of du.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	By      string
	Top     int
	Agents  []string
	Project string
	Since   string
	Roots   []string
	NoCache bool
	// Bytes prints sizes in bytes on a terminal too.
	Bytes bool

	Now   func() time.Time
	Getwd func() (string, error)
}

// NewCmd builds the du command. runF replaces the run function in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f, Now: time.Now, Getwd: os.Getwd}
	cmd := &cobra.Command{
		Use:   "du",
		Short: "Disk use of sessions per agent, project or session",
		Long: `Show how much disk the sessions of every agent use, grouped --by agent
(default), project or session, largest first; --top N keeps the N largest.

Every session list finds is measured (the same discovery and filters:
--agent, --project, --since, --root), with what belongs to it elsewhere:

  Claude Code   the transcript; its <id>/ folder (subagents/, tool-results/);
                file-history/<id>/, session-env/<id>/ and debug/<id>.txt
  pi family     the session file; the oh-my-pi/xcsh blobs it references
  OpenCode      its share of the database (the bytes of its rows)
  every file    sessctl's backups (<file>.sessctl-<time>.bak) and
                rejected-line sidecars, and agents' .bak copies beside it

A store several sessions share (an oh-my-pi blob store, an OpenCode or
OpenClaw database with its -wal) is counted once, whole, in a row of its own
(--by agent: in its agent's row); a session's share of it is shown as
"shared" and not added again. Hard links (sessctl's backups are links) are
counted once. Sizes are apparent sizes (as ls shows them, not allocated
blocks).

Sizes are human (KiB, MiB) on a terminal and bytes when piped (--bytes: bytes
on a terminal too). --json prints JSON Lines, one row per group, sizes in
bytes, with the bytes per kind.`,
		Example: `  sessctl du
  sessctl du --by session --top 10
  sessctl du --by project --json | jq -s 'map(.bytes) | add'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdutil.FlagErrorf("du takes no arguments (select with --agent, --project, --since)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.JSON = f.JSON
			if _, err := du.ParseGroup(opts.By); err != nil {
				return cmdutil.FlagErrorf("%v", err)
			}
			if opts.Top < 0 {
				return cmdutil.FlagErrorf("--top must be 0 or more")
			}
			if err := cmdutil.CheckFilters(opts.Agents, opts.Since, opts.Now()); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.By, "by", "agent", "Group by `agent|project|session`")
	fl.IntVar(&opts.Top, "top", 0, "Only the `N` largest rows (0: all)")
	cmdutil.AddSessionFilterFlags(fl, &opts.Agents, &opts.Project)
	fl.StringVar(&opts.Since, "since", "", "Only sessions active since `DURATION|DATE`")
	cmdutil.AddRootFlags(fl, &opts.Roots, &opts.NoCache)
	fl.BoolVar(&opts.Bytes, "bytes", false, "Sizes in bytes on a terminal too")
	return cmd
}

// Run runs du.
func Run(opts *Options) error {
	by, err := du.ParseGroup(opts.By)
	if err != nil {
		return cmdutil.FlagErrorf("%v", err)
	}
	f := opts.Factory
	sopts, err := f.DiscoverOptions(opts.Roots, opts.NoCache)
	if err != nil {
		return err
	}
	sopts.Agents = opts.Agents
	res := discover.ScanAll(sopts)
	if !opts.IO.Quiet() {
		for _, w := range res.Warnings {
			fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s\n", render.EscapeLine(w.Error()))
		}
	}
	sf := cmdutil.SessionFilter{Project: opts.Project, AllProjects: opts.Project == "", Since: opts.Since, All: true,
		Now: opts.Now, Getwd: opts.Getwd}
	sessions, err := sf.Apply(res.Sessions)
	if err != nil {
		return err
	}
	sort.SliceStable(sessions, func(i, j int) bool { return sessions[i].Path < sessions[j].Path })
	reg := f.Registry
	m := du.New(by)
	failed := 0
	for _, s := range sessions {
		ds := du.Session{Agent: s.Agent, ID: s.ID, Project: s.Cwd, Ref: s.Path}
		ref := sessfmt.Ref{Format: s.Format, Agent: s.Agent, Path: s.Path}
		if strings.Contains(s.Path, "#") || reg.Format(s.Format) == nil {
			if ref, err = reg.Resolve(s.Path); err != nil {
				failed++
				fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s: %s\n", render.EscapeLine(s.Path), render.EscapeLine(err.Error()))
				continue
			}
		}
		if fl, ok := reg.Format(ref.Format).(sessfmt.Filer); ok {
			files, err := fl.SessionFiles(ref)
			if err != nil {
				failed++
				fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s: %s\n", render.EscapeLine(s.Path), render.EscapeLine(err.Error()))
				continue
			}
			ds.Files = files
		} else if ref.ID != "" {
			// a session in a store whose format lists nothing: the store,
			// shared
			ds.Files = []sessfmt.FileUse{{Path: ref.Path, Kind: "database", Shared: ref.Path}}
		}
		m.Add(ds)
	}
	rows := m.Rows()
	for _, e := range m.Errors {
		failed++
		fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s\n", render.EscapeLine(e.Error()))
	}
	total := du.Sum(rows)
	if opts.Top > 0 && len(rows) > opts.Top {
		rows = rows[:opts.Top]
	}
	out := bufio.NewWriter(opts.IO.Out)
	tty := opts.IO.IsStdoutTTY()
	if opts.JSON {
		for _, r := range rows {
			if err := render.WriteJSONLine(out, r, tty); err != nil {
				return err
			}
		}
	} else {
		size := func(n int64) string {
			if tty && !opts.Bytes {
				return du.Human(n)
			}
			return strconv.FormatInt(n, 10)
		}
		writeTable(out, tty, rows, total, by, size, opts.Top > 0 && len(rows) == opts.Top)
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if failed > 0 {
		return cmdutil.SilentError
	}
	return nil
}

func writeTable(w io.Writer, tty bool, rows []du.Row, total du.Row, by du.Group, size func(int64) string, cut bool) {
	tw := render.NewColumns(w, tty, false)
	head := []string{"SIZE", "FILES", "SESSIONS", "SHARED", strings.ToUpper(string(by))}
	if by == du.BySession {
		head = append(head, "AGENT", "PATH")
	}
	tw.Row(head...)
	for _, r := range rows {
		shared := ""
		if r.SharedBytes > 0 {
			shared = size(r.SharedBytes)
		}
		g := r.Group
		if r.Shared != "" && by != du.BySession {
			g = "(shared) " + r.Shared
		}
		cells := []string{size(r.Bytes), strconv.Itoa(r.Files), strconv.Itoa(r.Sessions), shared, render.EscapeLine(g)}
		if by == du.BySession {
			p := r.Session
			if r.Shared != "" {
				p = r.Shared
			}
			cells = append(cells, render.EscapeLine(r.Agent), render.EscapeLine(p))
		}
		tw.Row(cells...)
	}
	label := "total"
	if cut {
		label = "total (all rows)"
	}
	tw.Row(size(total.Bytes), strconv.Itoa(total.Files), strconv.Itoa(total.Sessions), "", label)
	tw.Flush()
}
