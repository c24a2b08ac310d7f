// Package search implements `sessctl search`: find a pattern in the text a
// person reads in sessions of every agent.
package search

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fatih/color"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/search"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of search.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	Pattern string
	Args    []string

	Regexp      bool
	Fixed       bool
	IgnoreCase  bool
	In          []string
	Roles       []string
	AllBranches bool
	FilesOnly   bool
	Titles      bool

	Agents      []string
	Project     string
	AllProjects bool
	Since       string
	Roots       []string
	All         bool
	NoCache     bool

	// Now is the clock and Getwd the current directory (tests pin them).
	Now   func() time.Time
	Getwd func() (string, error)
}

// NewCmd builds the search command. runF replaces the run function in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f, Now: time.Now, Getwd: os.Getwd}
	cmd := &cobra.Command{
		Use:   "search <pattern> [<session>|<path>...]",
		Short: "Find a pattern in the text of sessions of every agent",
		Long: `Find a pattern in what a person reads in sessions: the JSON-decoded text
(\n, \" and \uXXXX resolved), not the raw bytes. A fixed string by default
(-F); -E reads it as a Go (RE2) regular expression, which never backtracks;
-i ignores case.

Without sessions, every session of every agent is searched, found and
filtered as list finds them (--agent, --project, --since, --all-projects,
--root, --all). Sessions may be named as list shows them (a path, an id, a
unique id prefix, <store>#<id>), and a folder is searched for session files.

--in picks the kinds of text: text (what the user and the model wrote,
summaries), thinking, tool-input, tool-output, title, or all (default:
text,tool-input,tool-output). --role keeps only some roles (user,
assistant, tool, system, …). Every entry in the file is searched, on the
active path or not; each hit says which (--all-branches=false: the active
path only).

Output: on a terminal, hits grouped by session with the match highlighted;
piped, one hit per line, tab-separated: agent, session id, entry id, line,
role, kind, time (RFC 3339), "active" or "branch", snippet, session. --json
prints JSON Lines, one hit per line. Session text is escaped like everywhere
else.

-l prints one session per line: agent, id, session; as grep -l, each file is
read only up to its first hit. --titles adds the title before the session
(list's title: a session the list cache does not know is read whole once,
then kept in the cache). With --json, -l prints one JSON object per session
(agent, id, session; title with --titles).

Speed: a raw-byte prefilter picks the lines that may match; only those are
decoded and matched exactly; sessions are searched in parallel.

Exit status: 0 a match was found; 3 no match; 1 error (no match and a
session could not be read); 2 usage error.`,
		Example: `  sessctl search 'connection refused'
  sessctl search -i -E 'fix(ed)? the (parser|lexer)' --agent claude --since 7d
  sessctl search -l TODO --project . | fzf
  sessctl search -l --titles TODO | cut -f2,3
  sessctl search --in tool-output --json 'panic:' | jq .session`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 {
				return cmdutil.FlagErrorf("search needs a pattern")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Pattern, opts.Args = args[0], args[1:]
			opts.JSON = f.JSON
			if opts.Regexp && opts.Fixed {
				return cmdutil.FlagErrorf("-E and -F cannot be used together")
			}
			if opts.Titles && !opts.FilesOnly {
				return cmdutil.FlagErrorf("--titles needs -l")
			}
			if _, err := sessfmt.ParseTextKinds(opts.In); err != nil {
				return cmdutil.FlagErrorf("--in: %v", err)
			}
			if err := cmdutil.CheckFilters(opts.Agents, opts.Since, time.Now()); err != nil {
				return err
			}
			if _, err := search.Compile(opts.Pattern, search.Options{Regexp: opts.Regexp, IgnoreCase: opts.IgnoreCase}); err != nil {
				return cmdutil.FlagErrorf("pattern: %v", err)
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVarP(&opts.Regexp, "regexp", "E", false, "Read the pattern as a Go (RE2) regular expression")
	fl.BoolVarP(&opts.Fixed, "fixed-strings", "F", false, "Read the pattern as a fixed string (the default)")
	fl.BoolVarP(&opts.IgnoreCase, "ignore-case", "i", false, "Ignore case")
	fl.StringSliceVar(&opts.In, "in", []string{"text", "tool-input", "tool-output"}, "Kinds of text: text, thinking, tool-input, tool-output, title, all")
	fl.StringSliceVar(&opts.Roles, "role", nil, "Only these roles (repeatable): user, assistant, tool, system, …")
	fl.BoolVar(&opts.AllBranches, "all-branches", true, "Every entry in the file (false: the active path only)")
	fl.BoolVarP(&opts.FilesOnly, "files-with-matches", "l", false, "Print the matching sessions only, one per line: agent, id, session")
	fl.BoolVar(&opts.Titles, "titles", false, "With -l: print each session's title too (reads a session the list cache does not know whole)")
	cmdutil.AddSessionFilterFlags(fl, &opts.Agents, &opts.Project)
	fl.BoolVar(&opts.AllProjects, "all-projects", true, "Sessions of all projects (--all-projects=false: current directory only)")
	fl.StringVar(&opts.Since, "since", "", "Only sessions active since `DURATION|DATE` (30m, 12h, 7d, 2w, 2026-01-31, RFC 3339)")
	cmdutil.AddRootFlags(fl, &opts.Roots, &opts.NoCache)
	fl.BoolVar(&opts.All, "all", false, "Also sidechain-only Claude Code transcripts (subagent files)")
	return cmd
}

// Run runs search.
func Run(opts *Options) error {
	f := opts.Factory
	if opts.FilesOnly {
		// main collects at half the default headroom for the index of a
		// large session, which search -l seldom builds (a pi file is read
		// line by line); its heap is small, and at 50 the runtime's 4 MiB
		// minimum heap is halved too: a collection every 2 MiB cost a
		// tenth of the CPU over 2,000 sessions. Peak RSS of -l over a
		// 200 MB line stayed within 10 % (read whole: 843 -> 845 MB; in
		// pieces: 42 -> 46 MB).
		cmdutil.GCPercent(100)
	}
	m, err := search.Compile(opts.Pattern, search.Options{Regexp: opts.Regexp, IgnoreCase: opts.IgnoreCase})
	if err != nil {
		return cmdutil.FlagErrorf("pattern: %v", err)
	}
	kinds, _ := sessfmt.ParseTextKinds(opts.In)
	cfg := search.Config{
		Matcher: m, Kinds: kinds, Roles: opts.Roles, ActiveOnly: !opts.AllBranches, FirstOnly: opts.FilesOnly,
		NoTitles: opts.FilesOnly && !opts.Titles,
		Open:     func(r sessfmt.Ref) (sessfmt.Session, error) { return f.Registry.OpenRef(r, sessfmt.OpenOptions{}) },
		Format:   f.Registry.Format,
	}
	var targets []search.Target
	var results []*search.Result // searched already, in the order to show
	searched := false
	var cache *discover.Cache
	if len(opts.Args) > 0 {
		targets, err = argTargets(opts)
	} else {
		targets, results, searched, cache, err = discovered(opts, cfg)
	}
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(opts.IO.Out, 1<<16)
	st := render.NewStyles(opts.IO)
	hl := opts.IO.Style(color.FgRed, color.Bold) // as grep
	tty := opts.IO.IsStdoutTTY()
	hits, failed := 0, 0
	emit := func(r *search.Result) error {
		if r.Err != nil {
			failed++
			if !opts.IO.Quiet() {
				fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s: %s\n", render.EscapeLine(r.Target.Ref.String()), render.EscapeLine(r.Err.Error()))
			}
		}
		if len(r.Hits) == 0 {
			return nil
		}
		hits += len(r.Hits)
		switch {
		case opts.FilesOnly && opts.JSON:
			h := r.Hits[0]
			row := fileRow{Agent: h.Agent, ID: h.ID, Session: h.Session}
			if opts.Titles {
				row.Title = &h.Title
			}
			if err := render.WriteJSONLine(out, &row, tty); err != nil {
				return err
			}
		case opts.JSON:
			for i := range r.Hits {
				// issue 11.8: a terminal acts on C1 and bidi characters
				if err := render.WriteJSONLine(out, &r.Hits[i], tty); err != nil {
					return err
				}
			}
		case opts.FilesOnly && opts.Titles:
			h := r.Hits[0]
			fmt.Fprintf(out, "%s\t%s\t%s\t%s\n", tsv(h.Agent), tsv(h.ID), tsv(h.Title), tsv(h.Session))
		case opts.FilesOnly:
			h := r.Hits[0]
			fmt.Fprintf(out, "%s\t%s\t%s\n", tsv(h.Agent), tsv(h.ID), tsv(h.Session))
		case tty:
			writeGroup(out, r, st, hl)
		default:
			for _, h := range r.Hits {
				fmt.Fprintf(out, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", tsv(h.Agent), tsv(h.ID), tsv(h.EntryID), h.Line,
					tsv(h.Role), h.Kind, timeUTC(h.Time), pathWord(h.OnPath), tsv(h.Snippet), tsv(h.Session))
			}
		}
		return nil
	}
	if searched {
		for _, r := range results {
			if err = emit(r); err != nil {
				break
			}
		}
	} else {
		err = search.Run(cfg, targets, emit)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if cache != nil {
		// The titles search had to read (sessions the list cache did not
		// know) are kept for the next search; list reads the files again.
		if serr := cache.Save(); serr != nil && !opts.IO.Quiet() {
			fmt.Fprintf(opts.IO.ErrOut, "sessctl: cannot write the list cache: %s\n", render.EscapeLine(serr.Error()))
		}
	}
	if err != nil {
		return err
	}
	switch {
	case hits > 0:
		return nil
	case failed > 0:
		return cmdutil.SilentError
	}
	return cmdutil.ErrProblems
}

// fileRow is one session of -l --json.
type fileRow struct {
	Agent   string  `json:"agent"`
	ID      string  `json:"id"`
	Title   *string `json:"title,omitempty"` // with --titles
	Session string  `json:"session"`         // the ref every command accepts
}

func pathWord(on bool) string {
	if on {
		return "active"
	}
	return "branch"
}

func timeUTC(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// tsv makes a field safe for a tab-separated line: escaped like every
// session text, tabs and newlines shown (⏎, a space).
func tsv(s string) string { return render.EscapeLine(s) }

type styler interface {
	Sprint(a ...any) string
}

// writeGroup prints one session's hits for a terminal: a heading, then
// each hit with its entry, role, time and the snippet, the match
// highlighted. Each piece of session text is escaped on its own, so the
// highlight falls exactly on the match.
func writeGroup(w io.Writer, r *search.Result, st render.Styles, hl styler) {
	h0 := r.Hits[0]
	fmt.Fprintf(w, "%s %s %s\n", st.Role.Sprint(render.EscapeLine(h0.Agent)), st.Bold.Sprint(render.EscapeLine(h0.ShortID)), render.EscapeLine(render.Truncate(h0.Title, 80)))
	for _, h := range r.Hits {
		var loc []string
		if h.Line > 0 {
			loc = append(loc, "line "+strconv.Itoa(h.Line))
		}
		if h.EntryID != "" {
			loc = append(loc, short(h.EntryID))
		}
		loc = append(loc, h.Role, h.Kind)
		if h.Time != nil {
			loc = append(loc, h.Time.Local().Format("2006-01-02 15:04"))
		}
		if !h.OnPath {
			loc = append(loc, "off the active path")
		}
		if h.Matches > 1 {
			loc = append(loc, fmt.Sprintf("%d matches", h.Matches))
		}
		fmt.Fprintf(w, "  %s\n    ", st.Dim.Sprint(render.EscapeLine(strings.Join(loc, " · "))))
		at := 0
		for _, sp := range h.Spans {
			fmt.Fprint(w, render.EscapeLine(h.Snippet[at:sp[0]]))
			fmt.Fprint(w, hl.Sprint(render.EscapeLine(h.Snippet[sp[0]:sp[1]])))
			at = sp[1]
		}
		fmt.Fprintln(w, render.EscapeLine(h.Snippet[at:]))
	}
	fmt.Fprintln(w)
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// argTargets resolves the sessions and folders named on the command line.
func argTargets(opts *Options) ([]search.Target, error) {
	reg := opts.Factory.Registry
	var out []search.Target
	for _, arg := range opts.Args {
		if st, err := os.Stat(arg); err == nil && st.IsDir() {
			if ref, ok := claimed(reg, arg); ok {
				out = append(out, search.Target{Ref: ref})
				continue
			}
			err := filepath.WalkDir(arg, func(p string, d os.DirEntry, err error) error {
				if err != nil {
					fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s\n", render.EscapeLine(err.Error()))
					return nil
				}
				if d.Type().IsRegular() && strings.HasSuffix(p, ".jsonl") {
					if ref, err := reg.SniffFile(p); err == nil {
						out = append(out, search.Target{Ref: ref})
					}
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			continue
		}
		ref, err := reg.Resolve(arg)
		if err != nil {
			if _, ok := err.(*sessfmt.AmbiguousError); ok {
				return nil, &cmdutil.UsageError{Err: err}
			}
			return nil, err
		}
		out = append(out, search.Target{Ref: ref})
	}
	return out, nil
}

func claimed(reg *sessfmt.Registry, arg string) (sessfmt.Ref, bool) {
	for _, f := range reg.Formats() {
		if ref, ok := f.Claim(arg); ok {
			return ref, true
		}
	}
	return sessfmt.Ref{}, false
}

// discovered lists every session as list does, filtered the same way. The
// list cache is returned when search may add rows to it (quickTargets).
// With -l and quickTargets, the sessions are searched as they are found
// (searchedQuick): their results are returned instead, searched true.
func discovered(opts *Options, cfg search.Config) (targets []search.Target, results []*search.Result, searched bool, cache *discover.Cache, err error) {
	f := opts.Factory
	sopts, err := f.DiscoverOptions(opts.Roots, opts.NoCache)
	if err != nil {
		return nil, nil, false, nil, err
	}
	sopts.Agents = opts.Agents
	if opts.Since == "" && opts.Project == "" && opts.AllProjects {
		if opts.FilesOnly {
			r, c := searchedQuick(opts, sopts, cfg)
			return nil, r, true, c, nil
		}
		t, c := quickTargets(opts, sopts)
		return t, nil, false, c, nil
	}
	res := discover.ScanAll(sopts)
	if !opts.IO.Quiet() {
		for _, w := range res.Warnings {
			fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s\n", render.EscapeLine(w.Error()))
		}
	}
	sessions, err := filter(opts, res.Sessions)
	if err != nil {
		return nil, nil, false, nil, err
	}
	discover.SortSessions(sessions, "modified")
	out := make([]search.Target, 0, len(sessions))
	for _, s := range sessions {
		t := search.Target{Agent: s.Agent, ID: s.ID, Title: s.Title}
		ref, err := f.SessionRef(s)
		if err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s: %s\n", render.EscapeLine(s.Path), render.EscapeLine(err.Error()))
			continue
		}
		t.Ref = ref
		out = append(out, t)
	}
	return out, nil, false, nil, nil
}

// searchedQuick is quickTargets and search.Collect at once: each session is
// searched as soon as it is found (opened and stat'ed with one lookup of
// its name), so that the walk and the search share the cores; the list
// cache is read meanwhile, and asked about a session only when it has a hit
// (quickInfo.known). The results (at most one hit each: -l) are then put in
// quickTargets' order, those list would not show (sidechain-only
// transcripts) left out.
func searchedQuick(opts *Options, sopts discover.Options, cfg search.Config) ([]*search.Result, *discover.Cache) {
	in := make(chan search.Target, 64)
	var infos []*quickInfo
	var cache *discover.Cache
	dirs := search.NewDirs()
	defer dirs.Close()
	cfg.Dirs = dirs
	go func() {
		defer close(in)
		cache = eachQuickTarget(opts, sopts, dirs, func(t search.Target, info *quickInfo) {
			infos = append(infos, info)
			in <- t
		})
	}()
	res := search.Collect(cfg, in) // returns once in is closed and all are searched
	var keep []int
	for i, r := range res {
		// A session with a hit or an error is asked about now if the walk
		// found it before the cache was read and nothing asked since: what
		// list hides is left out whether or not the cache was ready at the
		// walk (as the walk leaves it out when it is), errors included.
		if info := infos[i]; len(r.Hits) > 0 || r.Err != nil {
			if info.resolve != nil {
				info.resolve()
			}
			if info.hidden(opts.All) {
				continue
			}
		}
		keep = append(keep, i)
	}
	mods := make([]time.Time, len(keep))
	for j, i := range keep {
		mods[j] = infos[i].mod
	}
	out := make([]*search.Result, len(keep))
	for j, k := range byModified(mods) {
		out[j] = res[keep[k]]
	}
	return out, cache
}

// filter keeps the sessions list would show for the same --project,
// --all-projects, --since and --all (cmdutil.SessionFilter).
func filter(opts *Options, in []*discover.Session) ([]*discover.Session, error) {
	return cmdutil.SessionFilter{Project: opts.Project, AllProjects: opts.AllProjects, Since: opts.Since,
		All: opts.All, Now: opts.Now, Getwd: opts.Getwd}.Apply(in)
}

// quickTargets lists the sessions to search without summarising them when
// no filter needs a summary (no --since, no --project): the files list
// finds, with the list cache's agent, id and title where the cache is fresh
// for a file (and its sidechain verdict). A file the cache does not know is
// searched as it is; if it has a hit, its id is read from its first lines
// where they tell it and no title is shown (-l without --titles), else its
// id and title from list's summary of the whole file, which is then added
// to the cache (a brief row: list still reads the file itself), which the
// caller saves. One file under several names (links) is searched once,
// as list lists it once. Claude Code subagent transcripts
// (<session>/subagents/) are left out unless --all, as list leaves
// sidechain-only files out.
func quickTargets(opts *Options, sopts discover.Options) ([]search.Target, *discover.Cache) {
	type item struct {
		t   search.Target
		mod time.Time
	}
	var items []item
	cache := eachQuickTarget(opts, sopts, nil, func(t search.Target, info *quickInfo) { items = append(items, item{t, info.mod}) })
	mods := make([]time.Time, len(items))
	for i := range items {
		mods[i] = items[i].mod
	}
	out := make([]search.Target, len(items))
	for i, k := range byModified(mods) {
		out[i] = items[k].t
	}
	return out, cache
}

// byModified gives the positions of mods, latest first, equal times in
// their order (list's order of sessions).
func byModified(mods []time.Time) []int {
	order := make([]int, len(mods))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return mods[b].Compare(mods[a]) })
	return order
}

// quickInfo is what eachQuickTarget knows of a session besides its Target:
// its last activity (the order to show it in), and whether list hides it.
// With -l the list cache is asked only once the session has a hit
// (Target.Known, from a search worker), which fills it in.
type quickInfo struct {
	mod time.Time
	// known: the list cache has a fresh row; sidechain is its verdict.
	known, sidechain bool
	// subagent: a Claude Code subagent transcript (under subagents/),
	// which list hides unless --all when it has not read the file.
	subagent bool
	// resolve, when set, asks the cache about the session (sets known and
	// sidechain); it waits until the cache is read.
	resolve func()
}

// hidden says list would not show the session (without --all): the list
// cache says it is a sidechain-only transcript, or, when the cache does
// not know it, it is a subagent transcript.
func (q *quickInfo) hidden(all bool) bool {
	if all {
		return false
	}
	if q.known {
		return q.sidechain
	}
	return q.subagent
}

// eachQuickTarget finds quickTargets' sessions and gives each to add as it
// is found, with its quickInfo; it returns the list cache, as quickTargets.
// The cache is read while the first root is walked.
//
// dirs, when not nil (search -l), opens and stats each file by name in its
// folder (the Target carries the open file to the search), and nothing
// waits for the cache: a session found before the cache is read gets
// Target.Known instead, which waits for it (at its first hit, if any), and
// the caller leaves out afterwards what list hides (quickInfo.hidden).
// Without dirs, the cache is read before the first file is looked at, and a
// session list hides is not given.
func eachQuickTarget(opts *Options, sopts discover.Options, dirs *search.Dirs, add func(search.Target, *quickInfo)) *discover.Cache {
	warn := func(p string, err error) {
		if !opts.IO.Quiet() {
			fmt.Fprintf(opts.IO.ErrOut, "sessctl: %s: %s\n", render.EscapeLine(p), render.EscapeLine(err.Error()))
		}
	}
	var cache *discover.Cache
	cacheRead := make(chan struct{})
	if sopts.Cache != "" {
		go func() {
			defer close(cacheRead)
			cache = discover.LoadCache(sopts.Cache)
		}()
	} else {
		close(cacheRead)
	}
	lazy := dirs != nil
	seenRoot := map[string]bool{}
	seenFile := map[string]bool{}
	seenKey := map[discover.FileKey]bool{}
	for _, r := range discover.DefaultRoots(sopts.Env, sopts.Agents, sopts.Extra) {
		prov, ok := discover.Lookup(r.Agent)
		if !ok || prov.Files == nil {
			continue
		}
		st, err := os.Stat(r.Path)
		if err != nil || !st.IsDir() {
			if r.Explicit {
				warn(r.Path, fmt.Errorf("%s root (from %s) is not a readable folder", r.Agent, r.Source))
			}
			continue
		}
		real, err := filepath.EvalSymlinks(r.Path)
		if err != nil {
			real = r.Path
		}
		if seenRoot[real] {
			continue
		}
		seenRoot[real] = true
		files := prov.Files(r.Path, warn)
		if !lazy {
			<-cacheRead
		}
		for _, p := range files {
			var (
				fst    os.FileInfo
				opened *search.Opened
				err    error
			)
			if lazy {
				opened, fst, err = dirs.OpenStat(p)
			} else {
				fst, err = os.Stat(p)
			}
			if err != nil || !fst.Mode().IsRegular() {
				opened.Close()
				continue
			}
			if k, ok := discover.KeyOf(fst); ok {
				if seenKey[k] {
					opened.Close()
					continue
				}
				seenKey[k] = true
			} else if rp, err := filepath.EvalSymlinks(p); err == nil {
				if seenFile[rp] {
					opened.Close()
					continue
				}
				seenFile[rp] = true
			}
			info := &quickInfo{mod: fst.ModTime(), subagent: strings.Contains(filepath.ToSlash(p), "/subagents/")}
			t := search.Target{Agent: r.Agent, Ref: sessfmt.Ref{Format: prov.Format, Agent: r.Agent, Path: p}, Opened: opened}
			p, fst, prov := p, fst, prov
			// lookup asks the cache (once it is read) about the file.
			looked := false
			lookup := func() (b discover.Brief) {
				looked = true
				if cache != nil {
					if b, info.known = cache.Brief(p, fst, prov); info.known {
						info.sidechain, info.mod = b.Sidechain, b.Modified
					}
				}
				return b
			}
			if !lazy || cacheReady(cacheRead) {
				b := lookup()
				if info.hidden(opts.All) {
					opened.Close()
					continue
				}
				t.ID, t.Title = b.ID, b.Title
				if info.known {
					// The cache's row is the description, an empty title
					// included (describe does not read the session for it).
					t.Known = func() (string, string, bool) { return b.ID, b.Title, true }
				}
			} else {
				t.Known = func() (string, string, bool) {
					<-cacheRead
					b := lookup()
					return b.ID, b.Title, info.known
				}
				info.resolve = func() {
					// Once only: the cache asked again after the search
					// may hold the row a title just added (Describe).
					if !looked {
						<-cacheRead
						lookup()
					}
				}
			}
			if !info.known {
				// -l without --titles: the id from the file's first lines,
				// by list's own rule, where they tell it.
				t.Ident = func(head []byte) (string, bool) { return prov.Ident(p, head) }
			}
			if !info.known && prov.Info != nil {
				// Not in the list cache: a session with a hit gets its id and
				// title from list's own summary of the file (one streaming
				// pass, no index), not by being opened.
				t.Describe = func() (string, string, string, error) {
					s, err := prov.Info(p, fst)
					if err != nil {
						return "", "", "", err
					}
					<-cacheRead
					if cache != nil {
						cache.PutBrief(p, fst, prov, s)
					}
					return s.Agent, s.ID, s.Title, nil
				}
			}
			if opts.Factory.Registry.Format(prov.Format) == nil {
				ref, err := opts.Factory.Registry.Resolve(p)
				if err != nil {
					warn(p, err)
					opened.Close()
					continue
				}
				t.Ref = ref
			}
			add(t, info)
		}
	}
	<-cacheRead
	stored, warns := discover.ListStores(sopts)
	for _, w := range warns {
		warn(w.Path, w.Err)
	}
	for _, s := range stored {
		ref, err := opts.Factory.Registry.Resolve(s.Path)
		if err != nil {
			warn(s.Path, err)
			continue
		}
		add(search.Target{Ref: ref, Agent: s.Agent, ID: s.ID, Title: s.Title}, &quickInfo{mod: s.Modified})
	}
	return cache
}

// cacheReady says the list cache is read (c is closed), without waiting
// (a variable: tests make search -l take either way).
var cacheReady = isClosed

// isClosed says c is closed (without waiting).
func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
