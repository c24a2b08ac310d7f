// Package check implements `sessctl check`: a verdict on session files for
// people, scripts and CI.
package check

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of check.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	Args    []string
	All     bool
	Strict  bool
	Format  string // text, json, github
	BlobDir string
	Secrets bool // also report secret-in-transcript (internal/secrets)
}

// NewCmd builds the check command.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "check {<session> | <dir>}... | --all",
		Short: "Report problems in session files (for people, scripts and CI)",
		Long: `Check session files and report every problem with a stable code, a
severity (error, warning, info), the file and line, and a one-line hint of
the fix. A directory is searched for session files (*.jsonl) recursively;
an OpenCode data folder or database and an OpenClaw state folder are
checked as stores (and the OpenClaw transcripts in them one by one); --all
checks every session and store of every discovered root. A session is
named as list prints it: a path, an id or unique id prefix, "<store>#<id>".

Problems include: torn tail, malformed line, NUL run, BOM, missing or
invalid header, non-object line, duplicate id, self-parent, cycle, orphaned
parent (and pi's dropped-label fork bug), several roots (info), tool call
without result and result without call on the active path, compaction whose
firstKeptEntryId is not on the path, outdated version, dangling blob
reference (oh-my-pi, xcsh), a temp file left by a killed sessctl write
(stale-temp).

Output: grouped by file for people; --json prints
{"files":[{"path","agent","problems":[{"code","severity","line","id","message","fix"}]}],"summary":{…}};
--format github prints GitHub Actions annotations.

Exit status: 0 no errors (and no warnings with --strict); 3 problems found;
1 a file could not be read; 2 usage error.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			opts.JSON = f.JSON
			if opts.JSON {
				opts.Format = "json"
			}
			switch opts.Format {
			case "text", "json", "github":
			default:
				return cmdutil.FlagErrorf("invalid --format %q: use text, json or github", opts.Format)
			}
			if len(args) == 0 && !opts.All {
				return cmdutil.FlagErrorf("name session files or directories, or use --all")
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.All, "all", false, "Check every session of every discovered root")
	fl.BoolVar(&opts.Strict, "strict", false, "Fail (exit 3) on warnings too")
	fl.StringVar(&opts.Format, "format", "text", "Output format: text, json or github")
	fl.StringVar(&opts.BlobDir, "blob-dir", "", "Blob store for oh-my-pi/xcsh sessions (default: beside the sessions folder)")
	fl.BoolVar(&opts.Secrets, "secrets", false, "Also report secrets in the text (secret-in-transcript: kind, line, entry; never the secret)")
	return cmd
}

// FileResult is the verdict on one file.
type FileResult struct {
	Path     string            `json:"path"`
	Agent    string            `json:"agent"`
	Problems []problem.Problem `json:"problems"`
	Error    string            `json:"error,omitempty"`
}

// Summary counts what check found.
type Summary struct {
	Files      int `json:"files"`
	WithErrors int `json:"filesWithErrors"`
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Unreadable int `json:"unreadable"`
}

// Run runs check.
func Run(opts *Options) error {
	paths, usageErr := expand(opts)
	if usageErr != nil {
		return usageErr
	}
	var results []FileResult
	var sum Summary
	seen := map[string]bool{}
	temps := staleTemps{}
	for i := 0; i < len(paths); i++ {
		p := paths[i]
		if key := absPath(p); seen[key] {
			continue
		} else {
			seen[key] = true
		}
		r, members, store := checkOne(p, opts)
		if r.Error == "" && !store {
			r.Problems = append(r.Problems, temps.of(p)...)
		}
		// A store's session files are checked right after it.
		paths = append(paths[:i+1], append(members, paths[i+1:]...)...)
		results = append(results, r)
		sum.Files++
		if r.Error != "" {
			sum.Unreadable++
			continue
		}
		e, w, inf := problem.Count(r.Problems)
		sum.Errors += e
		sum.Warnings += w
		sum.Infos += inf
		if e > 0 {
			sum.WithErrors++
		}
	}
	var err error
	switch opts.Format {
	case "json":
		if results == nil {
			results = []FileResult{}
		}
		err = render.JSON(opts.IO.Out, struct {
			Files   []FileResult `json:"files"`
			Summary Summary      `json:"summary"`
		}{results, sum}, opts.IO.IsStdoutTTY())
	case "github":
		writeGitHub(opts.IO.Out, results)
	default:
		writeText(opts.IO, results, sum)
	}
	if err != nil {
		return err
	}
	switch {
	case sum.Unreadable > 0:
		return cmdutil.SilentError
	case sum.Errors > 0, opts.Strict && sum.Warnings > 0:
		return cmdutil.ErrProblems
	}
	return nil
}

// checkOne checks one session, session file or store through the format
// registry; members are the session files a store folder holds, to be
// checked after it; store is false for a plain session file.
func checkOne(path string, opts *Options) (r FileResult, members []string, store bool) {
	reg := opts.Factory.Registry
	copts := sessfmt.CheckOptions{BlobDir: opts.BlobDir}
	r = FileResult{Path: path, Problems: []problem.Problem{}}
	if sc := reg.StoreChecker(path); sc != nil {
		r.Agent = sc.(sessfmt.Format).Name()
		ps, members, err := sc.CheckStore(path, copts)
		if err != nil {
			r.Error = err.Error()
			return r, members, true
		}
		r.Problems = located(path, ps)
		return r, members, true
	}
	s, err := reg.Open(path, sessfmt.OpenOptions{Check: true})
	if err != nil {
		var ns *sessfmt.NotSessionError
		if errors.As(err, &ns) {
			err = errors.New("cannot tell which agent wrote this file (no session header or known record shape)")
		}
		r.Error = err.Error()
		return r, nil, false
	}
	defer s.Close()
	ref := s.Ref()
	r.Agent = ref.Agent
	if r.Agent == "" {
		r.Agent = ref.Format
	}
	c, ok := s.(sessfmt.Checker)
	if !ok {
		r.Error = sessfmt.Unsupported(s, "check").Error()
		return r, nil, false
	}
	ps, err := c.Check(copts)
	if err != nil {
		r.Error = err.Error()
		return r, nil, false
	}
	if opts.Secrets {
		if ps, err = appendSecrets(ps, s); err != nil {
			r.Error = err.Error()
			return r, nil, false
		}
	}
	sort.SliceStable(ps, func(a, b int) bool { return ps[a].Line < ps[b].Line })
	r.Problems = append(r.Problems, located(path, ps)...)
	return r, nil, !isFile(path)
}

// located folds each problem's store location into its message, written
// relative to the store as the user named it.
func located(base string, ps []problem.Problem) []problem.Problem {
	out := make([]problem.Problem, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.Located(base))
	}
	return out
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// absPath is the key under which a checked path is remembered, so that a
// file named twice (by --all and by its store) is checked once.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// expand turns the arguments into a list of files and stores: files as
// given, directories searched for *.jsonl (sidecars of repair skipped),
// OpenCode and OpenClaw stores kept whole.
func expand(opts *Options) ([]string, error) {
	reg := opts.Factory.Registry
	return opts.Factory.ExpandArgs(opts.Args, opts.All, func(p string) bool {
		return reg.StoreChecker(p) != nil || reg.Claims(p)
	})
}

func writeText(io *iostreams.IOStreams, results []FileResult, sum Summary) {
	st := render.NewStyles(io)
	w := io.Out
	for _, r := range results {
		path := render.EscapeLine(r.Path)
		if r.Error != "" {
			fmt.Fprintf(w, "%s: %s %s\n", path, st.Err.Sprint("cannot check:"), render.EscapeLine(r.Error))
			continue
		}
		if len(r.Problems) == 0 {
			fmt.Fprintf(w, "%s (%s): %s\n", path, r.Agent, st.OK.Sprint("ok"))
			continue
		}
		fmt.Fprintf(w, "%s (%s):\n", path, r.Agent)
		for _, p := range r.Problems {
			// A problem of the whole file (or of a store) has no line: the
			// column stays blank rather than saying "line" with no number.
			loc := strings.Repeat(" ", len("line ")+6)
			if p.Line > 0 {
				loc = fmt.Sprintf("line %6d", p.Line)
			}
			sev := string(p.Severity)
			switch p.Severity {
			case problem.Error:
				sev = st.Err.Sprintf("%-7s", sev)
			case problem.Warning:
				sev = st.Warn.Sprintf("%-7s", sev)
			default:
				sev = st.Dim.Sprintf("%-7s", sev)
			}
			fmt.Fprintf(w, "  %s  %s  %s  %s\n", loc, sev, p.Code, render.EscapeLine(p.Message))
			if p.Fix != "" {
				fmt.Fprintf(w, "  %s fix: %s\n", strings.Repeat(" ", 22), render.EscapeLine(p.Fix))
			}
		}
	}
	fmt.Fprintf(w, "\n%d %s checked: %d with errors, %d %s, %d %s, %d info",
		sum.Files, plural(sum.Files, "file", "files"), sum.WithErrors,
		sum.Errors, plural(sum.Errors, "error", "errors"), sum.Warnings, plural(sum.Warnings, "warning", "warnings"), sum.Infos)
	if sum.Unreadable > 0 {
		fmt.Fprintf(w, ", %d unreadable", sum.Unreadable)
	}
	fmt.Fprintln(w)
	if sum.Errors > 0 {
		fmt.Fprintln(io.ErrOut, "sessctl repair fixes these safely (it keeps a backup); try it with --dry-run first")
	}
}

// writeGitHub prints GitHub Actions workflow commands, one per problem.
func writeGitHub(w io.Writer, results []FileResult) {
	for _, r := range results {
		if r.Error != "" {
			fmt.Fprintf(w, "::error file=%s,title=unreadable::%s\n", ghProp(r.Path), ghData(r.Error))
			continue
		}
		for _, p := range r.Problems {
			level := "notice"
			switch p.Severity {
			case problem.Error:
				level = "error"
			case problem.Warning:
				level = "warning"
			}
			props := "file=" + ghProp(r.Path)
			if p.Line > 0 {
				props += fmt.Sprintf(",line=%d", p.Line)
			}
			props += ",title=" + ghProp(p.Code)
			msg := p.Message
			if p.Fix != "" {
				msg += " (fix: " + p.Fix + ")"
			}
			fmt.Fprintf(w, "::%s %s::%s\n", level, props, ghData(msg))
		}
	}
}

func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
