// Package list implements `sessctl list`: every session of every agent,
// newest first.
package list

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/fsx"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of list.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	Agents      []string
	Project     string
	AllProjects bool
	Since       string
	Sort        string
	Limit       int
	NoCache     bool
	Roots       []string
	All         bool // also sidechain-only Claude Code transcripts

	// Now is the clock (tests pin it).
	Now func() time.Time
	// Getwd is the current directory (for --project .).
	Getwd func() (string, error)
}

// NewCmd builds the list command. runF replaces the run function in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f, Now: time.Now, Getwd: os.Getwd}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the sessions of all agents, newest first",
		Long: `List every session file of every agent found on this machine: pi, oh-my-pi,
xcsh and Claude Code, plus the roots named in the config file and with
--root. One row per session: agent, short id, title (the session's name, else
its first user prompt), project (the cwd written in the file), messages,
size, last activity and status ("ok" or the number of errors and warnings
sessctl check reports). The message count is what sessctl show prints.

On a terminal the rows form a table with relative times and titles cut to the
width. Piped, each row is tab-separated with no header and nothing cut:
agent, id, title, project, messages, bytes, modified (RFC 3339), status, path.
--json prints an array of objects (see docs/list.md for the fields).

Every other command accepts what list shows: a path, a full id or a unique
id prefix.

Summaries are cached in $XDG_CACHE_HOME/sessctl/list-cache.json, keyed by
path, size and modification time; --no-cache reads every file again.
Unreadable files and folders are reported on stderr; list still exits 0.`,
		Example: `  sessctl list
  sessctl list --agent pi --agent omp --since 7d
  sessctl list --project . --sort size --limit 20
  sessctl list --root pi=/backup/pi-sessions --json`,
		Args: cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.JSON = f.JSON
			if err := cmdutil.CheckAgents(opts.Agents); err != nil {
				return err
			}
			switch opts.Sort {
			case "modified", "created", "size", "messages":
			default:
				return cmdutil.FlagErrorf("invalid --sort %q: use modified, created, size or messages", opts.Sort)
			}
			if opts.Limit < 0 {
				return cmdutil.FlagErrorf("--limit must not be negative")
			}
			if opts.Since != "" {
				if _, err := ParseSince(opts.Since, time.Now()); err != nil {
					return cmdutil.FlagErrorf("%v", err)
				}
			}
			if !cmd.Flags().Changed("no-cache") && f.Config != nil && f.Config.GetBool("no-cache") {
				opts.NoCache = true
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	cmdutil.AddSessionFilterFlags(fl, &opts.Agents, &opts.Project)
	fl.BoolVar(&opts.AllProjects, "all-projects", true, "Sessions of all projects (--all-projects=false: current directory only)")
	fl.StringVar(&opts.Since, "since", "", "Only sessions active since `DURATION|DATE` (30m, 12h, 7d, 2w, 2026-01-31, RFC 3339)")
	fl.StringVar(&opts.Sort, "sort", "modified", "Sort by modified, created, size or messages (newest/largest first)")
	fl.IntVar(&opts.Limit, "limit", 0, "Show at most `N` sessions (0 = all)")
	fl.BoolVar(&opts.All, "all", false, "Also list sidechain-only Claude Code transcripts (subagent files) and forks of archived OpenClaw transcripts")
	fl.BoolVar(&opts.NoCache, "no-cache", false, "Read every file again; do not use or update the list cache")
	fl.StringArrayVar(&opts.Roots, "root", nil, "Extra session root `KIND=PATH` (repeatable), e.g. pi=/mnt/old/.pi/agent/sessions")
	return cmd
}

// listGCPercent is list's GOGC (main sets 50, for the index of one large
// session that lives to the end). A first listing indexes every file and
// keeps a row of each: its garbage is the files' indexes, and at 50 it
// collected about 30 times over 2,000 sessions. Cold list over 2,000 pi
// sessions (2.6 GB), 9 alternating runs: 3.07 -> 2.89 CPU-s median, peak
// RSS 117 -> 156 MB (100: no gain measured, 136 MB). GOGC in the
// environment still wins.
var listGCPercent = 150

// Run runs list.
func Run(opts *Options) error {
	f := opts.Factory
	cmdutil.GCPercent(listGCPercent)
	sopts, err := f.DiscoverOptions(opts.Roots, opts.NoCache)
	if err != nil {
		return err
	}
	sopts.Agents = opts.Agents
	// The cache is written in the background while the stores are listed
	// and, when stdout is no terminal, while the rows are rendered into a
	// buffer; on a terminal the table waits for it. Either way the
	// warnings, the save's among them in its usual place, come first.
	sopts.SaveInBackground = true
	stop := startProgress(opts.IO, &sopts)
	res := discover.ScanAll(sopts)
	stop()
	defer res.WaitSave()
	warnings := func() {
		res.WaitSave()
		for _, w := range res.Warnings {
			fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s\n", render.EscapeLine(w.Error()))
		}
	}

	sessions, err := filter(opts, res.Sessions)
	if err != nil {
		warnings()
		return err
	}
	discover.SortSessions(sessions, opts.Sort)
	if opts.Limit > 0 && len(sessions) > opts.Limit {
		sessions = sessions[:opts.Limit]
	}
	if !opts.JSON && opts.IO.IsStdoutTTY() {
		warnings()
		return writeTable(opts, sessions, discover.ShortIDs(res.Sessions, 8))
	}
	var buf bytes.Buffer
	if opts.JSON {
		rows := make([]jsonRow, 0, len(sessions))
		for _, s := range sessions {
			rows = append(rows, jsonRow{s, resumeOf(f.Registry, s)})
		}
		err = render.JSON(&buf, rows, opts.IO.IsStdoutTTY())
	} else {
		err = writeTSV(&buf, sessions)
	}
	warnings()
	if err != nil {
		return err
	}
	_, err = opts.IO.Out.Write(buf.Bytes())
	return err
}

func filter(opts *Options, in []*discover.Session) ([]*discover.Session, error) {
	sf := cmdutil.SessionFilter{Project: opts.Project, AllProjects: opts.AllProjects, Since: opts.Since,
		All: opts.All, Now: opts.Now, Getwd: opts.Getwd}
	return sf.Apply(in)
}

// ParseSince parses --since (cmdutil.ParseSince).
func ParseSince(s string, now time.Time) (time.Time, error) { return cmdutil.ParseSince(s, now) }

func status(s *discover.Session) string {
	if s.Problems == 0 {
		return "ok"
	}
	return strconv.Itoa(s.Problems)
}

func tsvField(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\t', '\n', '\r':
			return ' '
		}
		return r
	}, s)
}

func writeTSV(out io.Writer, ss []*discover.Session) error {
	w := bufio.NewWriterSize(out, 1<<16)
	var b []byte // one row, appended field by field (fmt took half the time)
	for _, s := range ss {
		b = append(b[:0], s.Agent...)
		b = append(b, '\t')
		b = appendTSVField(b, s.ID)
		b = append(b, '\t')
		b = appendTSVField(b, s.Title)
		b = append(b, '\t')
		b = appendTSVField(b, s.Cwd)
		b = append(b, '\t')
		b = strconv.AppendInt(b, int64(s.Messages), 10)
		b = append(b, '\t')
		b = strconv.AppendInt(b, s.Bytes, 10)
		b = append(b, '\t')
		b = s.Modified.UTC().AppendFormat(b, time.RFC3339)
		b = append(b, '\t')
		b = append(b, status(s)...)
		b = append(b, '\t')
		b = appendTSVField(b, s.Path)
		b = append(b, '\n')
		w.Write(b)
	}
	return w.Flush()
}

// appendTSVField appends tsvField(s) to b (which also turns invalid UTF-8
// into U+FFFD: such a field goes through it).
func appendTSVField(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		return append(b, tsvField(s)...)
	}
	for {
		i := strings.IndexAny(s, "\t\n\r")
		if i < 0 {
			return append(b, s...)
		}
		b = append(b, s[:i]...)
		b = append(b, ' ')
		s = s[i+1:]
	}
}

func writeTable(opts *Options, ss []*discover.Session, short map[*discover.Session]string) error {
	if len(ss) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "No sessions found.")
		return nil
	}
	st := render.NewStyles(opts.IO)
	now := opts.Now()
	home := fsx.Home(opts.Factory.Getenv)
	type row struct{ agent, id, title, project, msgs, size, when, status string }
	rows := make([]row, len(ss))
	fixed := [6]int{len("AGENT"), len("ID"), len("MSGS"), len("SIZE"), len("ACTIVITY"), len("STATUS")}
	titleN, projectN := len("TITLE"), len("PROJECT")
	for i, s := range ss {
		r := row{
			agent:   s.Agent,
			id:      render.EscapeLine(short[s]),
			title:   render.EscapeLine(s.Title),
			project: render.EscapeLine(shortenHome(s.Cwd, home)),
			msgs:    strconv.Itoa(s.Messages),
			size:    render.HumanBytes(s.Bytes),
			when:    Relative(now, s.Modified),
			status:  status(s),
		}
		if r.status != "ok" {
			r.status += " problems"
			if s.Problems == 1 {
				r.status = "1 problem"
			}
		}
		if r.title == "" {
			r.title = "(untitled)"
		}
		if s.Orphaned {
			r.title = "(orphaned subagent) " + r.title
		}
		for k, v := range []string{r.agent, r.id, r.msgs, r.size, r.when, r.status} {
			fixed[k] = max(fixed[k], utf8.RuneCountInString(v))
		}
		titleN = max(titleN, utf8.RuneCountInString(r.title))
		projectN = max(projectN, utf8.RuneCountInString(r.project))
		rows[i] = r
	}
	used := 2 * 8 // cell padding of the eight columns
	for _, n := range fixed {
		used += n
	}
	titleW, projectW := columnWidths(opts.IO.TerminalWidth()-used-2, titleN, projectN)
	t := tablewriter.NewTable(opts.IO.Out,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Settings: tw.Settings{
				Separators: tw.SeparatorsNone,
				Lines:      tw.LinesNone,
			},
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithTrimSpace(tw.Off),
	)
	t.Header("AGENT", "ID", "TITLE", "PROJECT", "MSGS", "SIZE", "ACTIVITY", "STATUS")
	for _, r := range rows {
		stat := styled(st.OK, r.status)
		if r.status != "ok" {
			stat = styled(st.Warn, r.status)
		}
		if err := t.Append([]string{r.agent, r.id, render.Truncate(r.title, titleW), styled(st.Dim, cutLeft(r.project, projectW)), r.msgs, r.size, r.when, stat}); err != nil {
			return err
		}
	}
	return t.Render()
}

// columnWidths shares avail columns between TITLE and PROJECT, whose
// widest cells are titleN and projectN: the title gets the room (at least
// two thirds of it when both do not fit), the project what is left (at
// least 10, cut from the left so its last folders show), neither more than
// it needs.
func columnWidths(avail, titleN, projectN int) (title, project int) {
	if titleN+projectN <= avail {
		return titleN, projectN
	}
	project = min(projectN, max(10, avail/3))
	title = max(12, avail-project)
	if title > titleN {
		project += title - titleN
		title = titleN
	}
	return title, min(project, projectN)
}

// styled colours a cell; an empty cell stays empty (no bare colour codes).
func styled(c *color.Color, s string) string {
	if s == "" {
		return ""
	}
	return c.Sprint(s)
}

func shortenHome(p, home string) string {
	if home == "" || p == "" {
		return p
	}
	home = filepath.Clean(home)
	if p == home {
		return "~"
	}
	if strings.HasPrefix(p, home+string(filepath.Separator)) {
		return "~" + p[len(home):]
	}
	return p
}

// cutLeft keeps the last n runes of s, with a leading "…".
func cutLeft(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return "…" + string(rs[len(rs)-n+1:])
}

// Relative formats t relative to now: "just now", "3 minutes ago", "2 days
// ago"; older than a year, the date.
func Relative(now, t time.Time) string {
	d := now.Sub(t)
	if d < 0 {
		if d > -time.Minute {
			return "just now"
		}
		return "in the future"
	}
	unit := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one + " ago"
		}
		return fmt.Sprintf("%d %ss ago", n, one)
	}
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return unit(int64(d/time.Minute), "minute")
	case d < 24*time.Hour:
		return unit(int64(d/time.Hour), "hour")
	case d < 30*24*time.Hour:
		return unit(int64(d/(24*time.Hour)), "day")
	case d < 365*24*time.Hour:
		return unit(int64(d/(30*24*time.Hour)), "month")
	}
	return t.Local().Format("2006-01-02")
}

// startProgress shows "Scanning sessions: n/total" on a terminal stderr
// when the scan takes longer than half a second; the returned func ends it.
func startProgress(io *iostreams.IOStreams, sopts *discover.Options) func() {
	if !io.IsStderrTTY() || io.Quiet() {
		return func() {}
	}
	var mu sync.Mutex
	var done, total int
	sopts.Progress = func(d, t int) {
		mu.Lock()
		done, total = d, t
		mu.Unlock()
	}
	stopc := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		shown := false
		timer := time.NewTimer(500 * time.Millisecond)
		defer timer.Stop()
		select {
		case <-stopc:
			return
		case <-timer.C:
			select {
			case <-stopc: // both were ready: the scan is done, stay quiet
				return
			default:
			}
		}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			mu.Lock()
			d, t := done, total
			mu.Unlock()
			if t > 0 {
				fmt.Fprintf(io.ErrOut, "\r\x1b[KScanning sessions: %d/%d files", d, t)
				shown = true
			}
			select {
			case <-stopc:
				if shown {
					fmt.Fprint(io.ErrOut, "\r\x1b[K")
				}
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(stopc)
		<-finished
	}
}

// jsonRow is a session as --json prints it: discovery's fields and resume,
// the shell line that resumes it in its agent (null when none does; see
// sessctl resume).
type jsonRow struct {
	*discover.Session
	Resume *string `json:"resume"`
}

func resumeOf(r *sessfmt.Registry, s *discover.Session) *string {
	info := sessfmt.ResumeInfo{Agent: s.Agent, ID: s.ID, Path: s.Path, Cwd: s.Cwd}
	if s.OpenClaw != nil {
		info.Keys = s.OpenClaw.Keys
	}
	if s.SubagentOf != "" || s.Sidechain {
		return nil
	}
	c, ok := r.ResumeFor(info)
	if !ok {
		return nil
	}
	line := c.String()
	return &line
}
