// Package show implements `sessctl show`: the context the agent would really
// see for a session, rebuilt as the agent's own loader does.
package show

import (
	"bufio"
	"fmt"
	"io"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of show.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	Session string
	Leaf    string
	Full    bool
	Raw     bool
	Dialect string

	// Images (pi family): write the context's images to this folder;
	// ResolveBlobs inlines blob images in --json (the agent's load).
	ExtractImages string
	ResolveBlobs  bool

	// Claude Code
	LeafMode          string
	AcrossCompactions bool
	// Sent prints only what the agent sends to the model (sessions that
	// are sessfmt.SentMarkers: Claude Code).
	Sent bool

	// Redact replaces secrets with [redacted:<kind>] (internal/secrets).
	Redact bool
}

// NewCmd builds the show command. runF replaces the run function in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "show <session>",
		Short: "Show the context the agent would rebuild for a session",
		Long: `Show the conversation the model would really see for a session: the path
from the root to the active leaf, rebuilt exactly as the agent's own loader
does it (compaction summaries, kept entries, branch summaries, custom
messages).

<session> is a file path, a session id, or a unique id prefix.

The human view shortens thinking, tool arguments and tool results; --full
prints them whole. --json prints one object whose "messages" and other
context keys equal what the agent's buildSessionContext returns, plus
"format", "dialect", "path", "sessionId", "leafId" and "warnings".
--raw prints the path's entries as stored, byte for byte.

Images (oh-my-pi and xcsh keep them in a blob store): the human view shows
"[image png 12 KB blob 1a2b3c4d5e6f]", or "… missing" when the blob is gone;
--json inlines them as base64 the way the agent does on load
(--resolve-blobs, the default; a missing blob keeps its reference and adds
a warning). --extract-images DIR writes the images of the shown context to
DIR/<n>-<entry id>.<ext> (DIR is created 0700; existing files are never
replaced) and lists them on stderr.

Problems found while reading (torn lines, orphans, cycles…) are named on
stderr with their line numbers; show still prints what it can.

Claude Code transcripts: the leaf is picked as current Claude Code does
(--leaf-mode last-prompt); picker, resume and file-order pick it as the
/resume picker, "claude --resume <id>" and the byte walk of big files do.
When the modes lead to different conversations, stderr and --json
("leafModes") say so. The conversation stops at the last compaction unless
--across-compactions follows logicalParentUuid to show the whole history.
--json prints {"format","path","sessionId","leafUuid","leafMode","leafModes",
"messages":[{"uuid","type","role","timestamp","content","model","usage",…}],
"warnings"}. Claude Code cleans the conversation before sending it: synthetic
API-error messages, tool calls whose result is gone and results whose call
is gone are dropped. show keeps them, marked "not sent to the model" (--json:
"sent": false, "notSent", "dropped"); --sent prints exactly what is sent
(human and --json, where "sentOnly" is true). Other agents' contexts carry
no such marks: --sent is a usage error for them.

Exit status: 0 shown; 1 the file cannot be read or has no valid header;
2 usage error (bad flag, ambiguous id prefix).`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			opts.JSON = f.JSON
			if opts.Raw && opts.JSON {
				return cmdutil.FlagErrorf("--raw and --json cannot be used together")
			}
			if opts.Raw && opts.Sent {
				return cmdutil.FlagErrorf("--raw and --sent cannot be used together")
			}
			if err := f.CheckOpenOptions(opts.openOptions()); err != nil {
				return err
			}
			if !opts.ResolveBlobs {
				return cmdutil.FlagErrorf("--resolve-blobs=false is not supported: the context is rebuilt as the agent loads it, with blob images inlined; --raw prints the stored lines with their references")
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	cmdutil.AddLeafFlag(fl, &opts.Leaf, "Show the context at this entry (id or unique id prefix) instead of the active leaf")
	fl.BoolVar(&opts.Full, "full", false, "Do not shorten thinking, tool arguments and tool results")
	fl.BoolVar(&opts.Raw, "raw", false, "Print the path's entries as stored JSONL lines, byte for byte")
	cmdutil.AddDialectFlag(fl, &opts.Dialect)
	fl.StringVar(&opts.ExtractImages, "extract-images", "", "Write the images of the shown context to files in `DIR` (pi family)")
	fl.BoolVar(&opts.ResolveBlobs, "resolve-blobs", true, "--json: inline blob images as base64 as the agent does on load (oh-my-pi, xcsh)")
	cmdutil.AddLeafModeFlag(fl, &opts.LeafMode)
	fl.BoolVar(&opts.AcrossCompactions, "across-compactions", false, "Claude Code: follow logicalParentUuid over compaction boundaries (whole history)")
	fl.BoolVar(&opts.Sent, "sent", false, "Claude Code: print exactly what is sent to the model (leave out what the agent drops)")
	fl.BoolVar(&opts.Redact, "redact", false, "Replace secrets (gitleaks' default rules) with [redacted:<kind>]; --json and --raw are re-encoded")
	return cmd
}

func (opts *Options) openOptions() sessfmt.OpenOptions {
	return sessfmt.OpenOptions{Dialect: opts.Dialect, LeafMode: opts.LeafMode, Leaf: opts.Leaf}
}

// Run runs show: open the session, then print its context (or its raw
// path, or write its images) through the session's capabilities.
func Run(opts *Options) error {
	f := opts.Factory
	s, err := f.OpenSession(opts.Session, opts.openOptions())
	if err != nil {
		return err
	}
	defer s.Close()
	ref := s.Ref()
	choice, skip := cmdutil.LeafChoiceOf(s)
	f.PrintProblems(s, skip)
	if opts.ExtractImages != "" {
		x, ok := s.(sessfmt.ImageExtractor)
		if !ok {
			return cmdutil.UsageErrorf("--extract-images works for pi-family sessions (pi, oh-my-pi, xcsh), not %s", ref.Format)
		}
		if err := extractImages(opts, x); err != nil {
			return cmdutil.UsageIf(err)
		}
	}
	f.PrintLeafChoice(s, choice, "showing")
	copts := sessfmt.ContextOptions{
		AcrossCompactions: opts.AcrossCompactions,
		SentOnly:          opts.Sent,
		Notify:            func(n sessfmt.Notice) { f.PrintNotice(ref, n) },
	}
	tty := opts.IO.IsStdoutTTY()
	if opts.Raw {
		r, ok := s.(sessfmt.Rawer)
		if !ok {
			return sessfmt.Unsupported(s, "show --raw")
		}
		return cmdutil.UsageIf(writeRaw(opts.IO, redactRaw(r, opts.Redact), copts))
	}
	c, ok := s.(sessfmt.Contexter)
	if !ok {
		return sessfmt.Unsupported(s, "show")
	}
	if opts.Sent {
		if m, ok := c.(sessfmt.SentMarker); !ok || !m.MarksNotSent() {
			return &cmdutil.UsageError{Err: sessfmt.Unsupported(s, "show --sent")}
		}
	}
	if opts.Redact {
		if c, err = redactContext(c); err != nil {
			return err
		}
	}
	if opts.JSON {
		return cmdutil.UsageIf(render.JSONStream(opts.IO.Out, tty, func(w io.Writer) error {
			return c.WriteContextJSON(w, copts)
		}))
	}
	o := render.TranscriptOptions{Full: opts.Full, TTY: tty, Styles: render.NewStyles(opts.IO), ShowIDs: true}
	if sh, ok := s.(sessfmt.ShortIDer); ok {
		o.ShortIDLen = sh.ShortIDLen()
	}
	out := bufio.NewWriterSize(opts.IO.Out, 1<<16)
	if err := c.Transcript(copts, &sink{w: out, o: o, resume: resumeLine(f.Registry, s)}); err != nil {
		return cmdutil.UsageIf(err)
	}
	return out.Flush()
}

// sink draws a transcript as it is rebuilt.
type sink struct {
	w io.Writer
	o render.TranscriptOptions
	// resume is the header's last line: the command that resumes the
	// session in its agent ("" when none does).
	resume string
}

func (k *sink) Header(lines []string) error {
	if k.resume != "" {
		lines = append(lines[:len(lines):len(lines)], "resume: "+k.resume)
	}
	render.DrawTranscriptHeader(k.w, lines, k.o)
	return nil
}

// resumeLine is the shell line that resumes s in its agent (see sessctl
// resume), "" when there is none.
func resumeLine(r *sessfmt.Registry, s sessfmt.Session) string {
	ref := s.Ref()
	var m sessfmt.Meta
	if lm, ok := s.(interface{ ListMeta() sessfmt.Meta }); ok {
		m = lm.ListMeta() // no walk to count shown messages: not used here
	} else {
		m = s.Meta()
	}
	if m.SubagentOf != "" {
		return ""
	}
	agent := m.Agent
	if agent == "" {
		agent = ref.Agent
	}
	// Keys empty, not nil: show does not look up OpenClaw's session keys
	// (sessctl resume does), so an OpenClaw session has no line here.
	c, ok := r.ResumeFor(sessfmt.ResumeInfo{Agent: agent, ID: m.ID, Path: ref.String(), Cwd: m.Cwd, Keys: []string{}})
	if !ok {
		return ""
	}
	return c.String()
}

func (k *sink) Message(m *model.Message) error {
	return render.WriteMessage(k.w, m, k.o)
}

// TakesTextRefs: a text too long to hold is printed from the file
// (model.TextRef) as it is decoded.
func (k *sink) TakesTextRefs() bool { return true }

func (k *sink) Footer(line string) error {
	_, err := fmt.Fprintln(k.w, k.o.Styles.Dim.Sprint(render.EscapeLine(line)))
	return err
}

// writeRaw prints the path's stored lines, escaped on a terminal.
func writeRaw(io *iostreams.IOStreams, r sessfmt.Rawer, copts sessfmt.ContextOptions) error {
	w := bufio.NewWriterSize(io.Out, 1<<20)
	tty := io.IsStdoutTTY()
	err := r.RawLines(copts, func(l []byte) error {
		if tty {
			l = []byte(render.Escape(string(l)))
		}
		w.Write(l)
		return w.WriteByte('\n')
	})
	if err != nil {
		return err
	}
	return w.Flush()
}

// extractImages writes the images of the context to opts.ExtractImages and
// lists them on stderr.
func extractImages(opts *Options, x sessfmt.ImageExtractor) error {
	written, skipped, err := x.ExtractImages(opts.ExtractImages)
	if opts.IO.Quiet() {
		return err
	}
	for _, w := range written {
		verb := "wrote"
		if w.Kept {
			verb = "already there:"
		}
		fmt.Fprintf(opts.IO.ErrOut, "%s %s (%s, %s)\n", verb, render.EscapeLine(w.Path), render.EscapeLine(w.MIME), render.HumanBytes(w.Bytes))
	}
	for _, s := range skipped {
		fmt.Fprintf(opts.IO.ErrOut, "skipped image %d of entry %s: %s\n", s.N, render.EscapeLine(s.ID), render.EscapeLine(s.Reason))
	}
	if err != nil {
		return err
	}
	if len(written) == 0 && len(skipped) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "no images in the shown context")
	}
	return nil
}
