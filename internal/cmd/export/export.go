// Package export implements `sessctl export`: a session's conversation as
// Markdown, one self-contained HTML page, show's JSON, or a pi JSONL file.
package export

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sessctl/sessctl/internal/cmdutil"
	exp "github.com/sessctl/sessctl/internal/export"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/safewrite"
	"github.com/sessctl/sessctl/internal/secrets"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of export.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	Session     string
	Format      string
	Output      string
	Force       bool
	Leaf        string
	Dialect     string
	LeafMode    string
	AllBranches bool
	NoTools     bool
	NoThinking  bool
	Redact      bool
	Across      bool
}

// NewCmd builds the export command.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "export <session> [--format markdown|html|json|pi] [-o FILE]",
		Short: "Write a session out as Markdown, HTML, JSON or a pi JSONL file",
		Long: `Write a session's conversation for people to read or share, for any agent:
the conversation show rebuilds (the context at the leaf; --leaf picks another
entry, --all-branches adds every other branch after it).

--format markdown (default): a heading per message, tool calls and results
in fenced blocks named by the tool, thinking in <details>, images as
references, compaction and branch summaries marked.

--format html: one self-contained page, readable on a phone: no network,
no external asset, no script, no inline event handler, everything from the
session escaped, a strict Content-Security-Policy; the branch tree is a
folded list of links to the messages, long tool output is folded.

--format json: show --json's object (JSON of the context).

--format pi (alias jsonl): the session as a pi JSONL file: a pi-family file
as stored, or an OpenClaw database session (agents/<id>/agent/
openclaw-agent.sqlite#<session id>) as the pi lines its events make up,
which every sessctl command and pi itself can read. The database is opened
read-only.

--no-tools and --no-thinking leave tool calls/results and thinking out.
--redact replaces secrets (gitleaks' default rules) with
"[redacted:<kind>]"; with json and pi the JSON is re-encoded (keys sorted).

Without -o the export goes to stdout. -o FILE is written atomically and
never replaces an existing file unless --force; a symbolic link at FILE is
never followed.

Exit status: 0 written; 1 error; 2 usage error.`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			opts.JSON = f.JSON
			switch opts.Format {
			case "markdown", "md", "html", "json", "pi", "jsonl":
			default:
				return cmdutil.FlagErrorf("--format %q is not supported: use markdown, html, json or pi", opts.Format)
			}
			if opts.JSON && !cmd.Flags().Changed("format") {
				opts.Format = "json"
			}
			if err := f.CheckOpenOptions(sessfmt.OpenOptions{Dialect: opts.Dialect, LeafMode: opts.LeafMode}); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Format, "format", "markdown", "Output format: markdown, html, json or pi")
	fl.StringVarP(&opts.Output, "output", "o", "", "Write to `FILE` instead of stdout (never replaced without --force)")
	fl.BoolVar(&opts.Force, "force", false, "Replace an existing -o file (never through a symbolic link)")
	cmdutil.AddLeafFlag(fl, &opts.Leaf, "Export the conversation at this entry (id or unique id prefix)")
	cmdutil.AddDialectFlag(fl, &opts.Dialect)
	cmdutil.AddLeafModeFlag(fl, &opts.LeafMode)
	fl.BoolVar(&opts.AllBranches, "all-branches", false, "Also export every other branch (markdown, html)")
	fl.BoolVar(&opts.NoTools, "no-tools", false, "Leave out tool calls and results (markdown, html)")
	fl.BoolVar(&opts.NoThinking, "no-thinking", false, "Leave out thinking (markdown, html)")
	fl.BoolVar(&opts.Redact, "redact", false, "Replace secrets with [redacted:<kind>] (gitleaks' default rules)")
	fl.BoolVar(&opts.Across, "across-compactions", false, "Claude Code: the whole history, over compaction boundaries")
	return cmd
}

// Run runs export.
func Run(opts *Options) error {
	f := opts.Factory
	oo := sessfmt.OpenOptions{Leaf: opts.Leaf, Dialect: opts.Dialect, LeafMode: opts.LeafMode}
	s, err := f.OpenSession(opts.Session, oo)
	if err != nil {
		return err
	}
	defer s.Close()
	var det *secrets.Detector
	if opts.Redact {
		if det, err = secrets.Default(); err != nil {
			return err
		}
	}
	var w io.Writer
	var tw *render.TerminalJSONWriter // JSON to a terminal: C1/bidi escaped (issue 11.8)
	var lf *lazyFile                  // -o FILE, written as the export is made
	if opts.Output == "" {
		w = bufio.NewWriterSize(opts.IO.Out, 1<<16)
		if opts.IO.IsStdoutTTY() && opts.Format != "markdown" && opts.Format != "md" && opts.Format != "html" {
			tw = render.NewTerminalJSONWriter(opts.IO.Out)
			w = bufio.NewWriterSize(tw, 1<<16)
		}
	} else {
		lf = &lazyFile{path: opts.Output, force: opts.Force}
		w = lf
	}
	what, err := write(opts, s, oo, det, w)
	if err != nil {
		if lf != nil {
			lf.abort()
		}
		return err
	}
	if opts.Output == "" {
		if bw, ok := w.(*bufio.Writer); ok {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
		if tw != nil {
			if err := tw.Flush(); err != nil {
				return err
			}
		}
		if !opts.IO.Quiet() {
			fmt.Fprintf(opts.IO.ErrOut, "exported %s\n", what)
		}
		return nil
	}
	if err := lf.commit(); err != nil {
		return err
	}
	if !opts.IO.Quiet() {
		fmt.Fprintf(opts.IO.ErrOut, "exported %s to %s\n", what, render.EscapeLine(opts.Output))
	}
	return nil
}

// write writes the export of s on w, as it is made (never held whole but
// with --redact, whose rules need each text whole), and says what it
// wrote.
func write(opts *Options, s sessfmt.Session, oo sessfmt.OpenOptions, det *secrets.Detector, w io.Writer) (string, error) {
	f := opts.Factory
	what := ""
	switch opts.Format {
	case "pi", "jsonl":
		pw, ok := s.(sessfmt.PiWriter)
		if !ok {
			return "", sessfmt.Unsupported(s, "export --format pi")
		}
		var n int
		var err error
		if det != nil {
			var raw bytes.Buffer
			if _, err = pw.WritePi(&raw); err != nil {
				return "", err
			}
			n, err = redactLines(w, raw.Bytes(), det)
		} else {
			n, err = pw.WritePi(w)
		}
		if err != nil {
			return "", err
		}
		what = fmt.Sprintf("%d lines of session %s", n, render.EscapeLine(s.Ref().String()))
	case "json":
		cx, ok := s.(sessfmt.Contexter)
		if !ok {
			return "", sessfmt.Unsupported(s, "export --format json")
		}
		co := sessfmt.ContextOptions{AcrossCompactions: opts.Across}
		if det != nil {
			var raw bytes.Buffer
			if err := cx.WriteContextJSON(&raw, co); err != nil {
				return "", err
			}
			b, _ := det.RedactJSON(bytes.TrimSpace(raw.Bytes()))
			if _, err := w.Write(b); err != nil {
				return "", err
			}
		} else if err := cx.WriteContextJSON(&trimWriter{w: w}, co); err != nil {
			// show's JSON, streamed (what bytes.TrimSpace of it gives)
			return "", err
		}
		if _, err := w.Write([]byte{'\n'}); err != nil {
			return "", err
		}
		what = "session " + render.EscapeLine(s.Ref().String())
	default:
		d, err := exp.Collect(s, sessfmt.ContextOptions{AcrossCompactions: opts.Across, Notify: func(n sessfmt.Notice) {
			if !opts.IO.Quiet() && n.Warning {
				fmt.Fprintf(opts.IO.ErrOut, "%s: warning: %s\n", render.EscapeLine(s.Ref().String()), render.EscapeLine(n.Text))
			}
		}})
		if err != nil {
			return "", err
		}
		defer d.Close()
		if opts.Format == "html" {
			// The page embeds the session's own images (allow-listed
			// raster types); when they cannot be read it describes them.
			if err := d.LoadImages(s); err != nil && !opts.IO.Quiet() {
				fmt.Fprintf(opts.IO.ErrOut, "%s: warning: images: %s\n", render.EscapeLine(s.Ref().String()), render.EscapeLine(err.Error()))
			}
		}
		if opts.AllBranches {
			for _, leaf := range exp.Leaves(d.Tree) {
				oo2 := oo
				oo2.Leaf = leaf
				s2, err := f.Registry.OpenRef(s.Ref(), oo2)
				if err != nil {
					return "", err
				}
				err = d.AddBranch(leaf, s2)
				s2.Close()
				if err != nil {
					return "", err
				}
			}
		}
		if det != nil {
			if err := exp.Redact(d, det); err != nil {
				return "", err
			}
		}
		eo := exp.Options{NoTools: opts.NoTools, NoThinking: opts.NoThinking}
		if opts.Format == "html" {
			err = exp.HTML(w, d, eo)
		} else {
			err = exp.Markdown(w, d, eo)
		}
		if err != nil {
			return "", err
		}
		what = fmt.Sprintf("%d messages of session %s", len(d.Messages), render.EscapeLine(s.Ref().String()))
		if len(d.Branches) > 0 {
			what += fmt.Sprintf(" and %d other branches", len(d.Branches))
		}
		if d.Redacted > 0 {
			what += fmt.Sprintf(" (%d secrets redacted)", d.Redacted)
		}
	}
	return what, nil
}

// redactLines redacts each JSON line of raw and writes it; it returns the
// number of lines.
func redactLines(w io.Writer, raw []byte, det *secrets.Detector) (int, error) {
	n := 0
	for len(raw) > 0 {
		line := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			raw = nil
		}
		out, _ := det.RedactJSON(line)
		if _, err := w.Write(append(out, '\n')); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// beginFile starts writing path atomically: a new file, or with force an
// existing regular file replaced (no backup). A symbolic link at path is
// refused either way.
func beginFile(path string, force bool) (*safewrite.Writer, error) {
	fi, err := os.Lstat(path)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%s is a symbolic link; export never writes through one", render.EscapeLine(path))
	case err == nil && !force:
		return nil, fmt.Errorf("%s exists; export never replaces a file unless --force", render.EscapeLine(path))
	case err == nil && !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", render.EscapeLine(path))
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if err == nil {
		return safewrite.Begin(filepath.Clean(path), safewrite.Options{NoBackup: true, NoFollow: true}) // a link swapped in after the Lstat is refused too
	}
	return safewrite.Create(path, safewrite.Options{Mode: 0o600})
}
