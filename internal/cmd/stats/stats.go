// Package stats implements `sessctl stats`: tokens, stored cost, messages,
// tool calls and wall time of sessions of every agent, grouped.
package stats

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/stats"
	"github.com/spf13/cobra"
)

// Options are the inputs of stats.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool
	Args    []string

	By      string
	Since   string
	Agents  []string
	Project string
	Roots   []string
	NoCache bool
	// Tools prints the tool calls per tool under the table.
	Tools bool

	// Now, Getwd and Location are the clock, the current directory and
	// the time zone days are cut in (tests pin them).
	Now      func() time.Time
	Getwd    func() (string, error)
	Location *time.Location
}

// NewCmd builds the stats command. runF replaces the run function in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f, Now: time.Now, Getwd: os.Getwd}
	cmd := &cobra.Command{
		Use:   "stats [<session>...]",
		Short: "Tokens, stored cost, messages and tool calls of sessions",
		Long: `Add up what sessions say about their use of models: tokens (input, output,
cache read, cache write), the cost the agent stored, messages, model
responses, tool calls per tool, and wall time (first to last record of each
session), grouped --by session, project, day, model or agent.

Without sessions, every session of every agent that list finds is counted,
Claude Code subagent transcripts included (their usage counts for the
session that ran them); --agent, --project and --since select as list does
(--since keeps sessions active since then, and then only records since then).

A response an agent writes more than once is counted once: Claude Code
writes one line per content block of a response, each carrying its usage,
and a resumed session copies earlier responses; lines with the same
message.id and requestId are one response, with the largest usage its
copies carry (as ccusage counts). Every branch of a session is counted:
tokens spent on an abandoned branch were spent.

Cost is only what the agent stored (pi and oh-my-pi usage.cost, OpenCode's
message cost, Claude Code's cost-state totalCostUSD): sessctl has no price
table. "not stored" means the agent stored none; a "+" after a cost means
some responses had no stored cost, so the real cost is higher.

Days are cut in the local time zone (TZ). --json prints JSON Lines, one row
per group, and no total.`,
		Example: `  sessctl stats --by day --since 7d
  sessctl stats --by model --agent claude
  sessctl stats --by project --json | jq -s 'sort_by(-.totalTokens)'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			opts.JSON = f.JSON
			if _, err := stats.ParseGroup(opts.By); err != nil {
				return cmdutil.FlagErrorf("%v", err)
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
	fl.StringVar(&opts.By, "by", "session", "Group by `session|project|day|model|agent`")
	fl.StringVar(&opts.Since, "since", "", "Only sessions active and records written since `DURATION|DATE` (30m, 12h, 7d, 2w, 2026-01-31, RFC 3339)")
	cmdutil.AddSessionFilterFlags(fl, &opts.Agents, &opts.Project)
	cmdutil.AddRootFlags(fl, &opts.Roots, &opts.NoCache)
	fl.BoolVar(&opts.Tools, "tools", false, "Also print the tool calls per tool")
	return cmd
}

// target is a session to count.
type target struct {
	ref     sessfmt.Ref
	agent   string
	id      string
	project string
	parent  string // the session file a subagent transcript belongs to
}

// Run runs stats.
func Run(opts *Options) error {
	by, err := stats.ParseGroup(opts.By)
	if err != nil {
		return cmdutil.FlagErrorf("%v", err)
	}
	var since time.Time
	if opts.Since != "" {
		since, err = cmdutil.ParseSince(opts.Since, opts.Now())
		if err != nil {
			return cmdutil.FlagErrorf("%v", err)
		}
	}
	var targets []target
	if len(opts.Args) > 0 {
		for _, a := range opts.Args {
			ref, err := opts.Factory.Resolve(a)
			if err != nil {
				return err
			}
			targets = append(targets, target{ref: ref})
		}
	} else if targets, err = discovered(opts); err != nil {
		return err
	}
	// The same order on every run, so that a response copied into several
	// sessions always counts for the same one.
	sort.SliceStable(targets, func(i, j int) bool { return targets[i].ref.String() < targets[j].ref.String() })
	agg := stats.New(by, opts.Location)
	reg := opts.Factory.Registry
	failed, unsupported := 0, map[string]bool{}
	for _, t := range targets {
		err := count(reg, agg, t, since)
		switch {
		case err == errUnsupported:
			unsupported[t.agent] = true
		case err != nil:
			failed++
			fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s: %s\n", render.EscapeLine(t.ref.String()), render.EscapeLine(err.Error()))
		}
	}
	if len(unsupported) > 0 && !opts.IO.Quiet() {
		var names []string
		for a := range unsupported {
			names = append(names, a)
		}
		sort.Strings(names)
		fmt.Fprintf(opts.IO.ErrOut, "sessctl: stats is not supported for %s sessions (skipped)\n", strings.Join(names, ", "))
	}
	rows := agg.Rows()
	out := bufio.NewWriter(opts.IO.Out)
	if opts.JSON {
		for _, r := range rows {
			if err := render.WriteJSONLine(out, r, opts.IO.IsStdoutTTY()); err != nil {
				return err
			}
		}
	} else {
		writeTable(out, rows, by, opts.IO.IsStdoutTTY(), opts.Tools)
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if failed > 0 {
		return cmdutil.SilentError
	}
	return nil
}

var errUnsupported = fmt.Errorf("stats %w", sessfmt.ErrUnsupported)

func count(reg *sessfmt.Registry, agg *stats.Aggregator, t target, since time.Time) error {
	s, err := reg.OpenRef(t.ref, sessfmt.OpenOptions{Usage: true})
	if err != nil {
		return err
	}
	defer s.Close()
	u, ok := s.(sessfmt.Usager)
	var m sessfmt.Meta
	if lm, ok := s.(interface{ ListMeta() sessfmt.Meta }); ok {
		m = lm.ListMeta() // no walk to count shown messages: not used here
	} else {
		m = s.Meta()
	}
	if t.agent == "" {
		t.agent = m.Agent
		if t.agent == "" {
			t.agent = s.Ref().Agent
		}
	}
	if !ok {
		return errUnsupported
	}
	if t.project == "" {
		t.project = m.Cwd
	}
	if t.parent == "" {
		t.parent = m.SubagentOf
	}
	id := t.id
	if id == "" {
		id = m.ID
	}
	ref := t.ref.String()
	if t.parent != "" {
		// a subagent transcript (a child session) counts for the session
		// that ran it: "<store>#<id>" or "<dir>/<id>.jsonl"
		ref = t.parent
		if i := strings.LastIndex(t.parent, "#"); i >= 0 {
			id = t.parent[i+1:]
		} else {
			id = strings.TrimSuffix(filepath.Base(t.parent), ".jsonl")
		}
	}
	sess := stats.Session{Agent: t.agent, ID: id, Project: t.project, Ref: ref}
	return u.UsageEvents(func(ev sessfmt.UsageEvent) error {
		if !since.IsZero() && !ev.Time.IsZero() && ev.Time.Before(since) {
			return nil
		}
		agg.Add(sess, ev)
		return nil
	})
}

// discovered lists every session as list does (subagent transcripts
// included), filtered by --agent, --project and --since.
func discovered(opts *Options) ([]target, error) {
	f := opts.Factory
	sopts, err := f.DiscoverOptions(opts.Roots, opts.NoCache)
	if err != nil {
		return nil, err
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
		return nil, err
	}
	var out []target
	for _, s := range sessions {
		t := target{agent: s.Agent, id: s.ID, project: s.Cwd, parent: s.SubagentOf}
		ref, err := f.SessionRef(s)
		if err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s: %s\n", render.EscapeLine(s.Path), render.EscapeLine(err.Error()))
			continue
		}
		t.ref = ref
		out = append(out, t)
	}
	return out, nil
}

func writeTable(w io.Writer, rows []stats.Row, by stats.Group, tty, tools bool) {
	tw := render.NewColumns(w, tty, true)
	head := []string{strings.ToUpper(string(by)), "SESSIONS", "INPUT", "OUTPUT", "CACHE READ", "CACHE WRITE", "TOTAL", "COST (USD)", "MESSAGES", "TOOL CALLS", "WALL"}
	if by == stats.BySession {
		head = append([]string{"AGENT"}, head...)
	}
	tw.Row(head...)
	line := func(r stats.Row, first []string) {
		n := 0
		for _, v := range r.ToolCalls {
			n += v
		}
		tok := []string{num(r.Tokens.Input, tty), num(r.Tokens.Output, tty), num(r.Tokens.CacheRead, tty), num(r.Tokens.CacheWrite, tty), num(r.Total, tty)}
		if r.TokensNotStored {
			tok = []string{"-", "-", "-", "-", "-"}
		}
		cells := append(append(first, strconv.Itoa(r.Sessions)), tok...)
		cells = append(cells, Cost(r), strconv.Itoa(r.Messages), strconv.Itoa(n), wall(r.Wall))
		tw.Row(cells...)
	}
	for _, r := range rows {
		g := render.EscapeLine(r.Group)
		if by == stats.BySession {
			line(r, []string{render.EscapeLine(r.Agent), g})
		} else {
			line(r, []string{g})
		}
	}
	t := stats.Sum(rows)
	if by == stats.BySession {
		line(t, []string{"", "total"})
	} else {
		line(t, []string{"total"})
	}
	tw.Flush()
	if tools && len(t.ToolCalls) > 0 {
		names := make([]string, 0, len(t.ToolCalls))
		for k := range t.ToolCalls {
			names = append(names, k)
		}
		sort.Slice(names, func(i, j int) bool {
			if t.ToolCalls[names[i]] != t.ToolCalls[names[j]] {
				return t.ToolCalls[names[i]] > t.ToolCalls[names[j]]
			}
			return names[i] < names[j]
		})
		fmt.Fprintln(w)
		tw = render.NewColumns(w, tty, true)
		tw.Row("TOOL", "CALLS")
		for _, k := range names {
			tw.Row(render.EscapeLine(k), strconv.Itoa(t.ToolCalls[k]))
		}
		tw.Flush()
	}
}

// Cost is a row's cost as printed: "not stored", or dollars with a "+" when
// some responses had no stored cost.
func Cost(r stats.Row) string {
	if r.Cost == nil {
		return "not stored"
	}
	s := strconv.FormatFloat(*r.Cost, 'f', 4, 64)
	if r.CostPartial {
		s += "+"
	}
	return s
}

// num prints a count, with thousands separators on a terminal.
func num(n int64, tty bool) string {
	s := strconv.FormatInt(n, 10)
	if !tty || len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

func wall(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	return d.Round(time.Second).String()
}
