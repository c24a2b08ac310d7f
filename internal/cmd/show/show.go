// Package show implements `sessctl show`: the context the agent would really
// see for a session, rebuilt as the agent's own loader does.
package show

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/sessctl/sessctl/internal/images"
	"github.com/sessctl/sessctl/internal/cmd/sessopen"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/session"
	"github.com/sessctl/sessctl/internal/tree"
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
"warnings"}.

Exit status: 0 shown; 1 the file cannot be read or has no valid header;
2 usage error (bad flag, ambiguous id prefix).`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			opts.JSON = f.JSON
			if opts.Raw && opts.JSON {
				return cmdutil.FlagErrorf("--raw and --json cannot be used together")
			}
			if _, err := pi.ParseDialect(opts.Dialect); err != nil {
				return cmdutil.FlagErrorf("%v", err)
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
	fl.StringVar(&opts.Leaf, "leaf", "", "Show the context at this entry (id or unique id prefix) instead of the active leaf")
	fl.BoolVar(&opts.Full, "full", false, "Do not shorten thinking, tool arguments and tool results")
	fl.BoolVar(&opts.Raw, "raw", false, "Print the path's entries as stored JSONL lines, byte for byte")
	fl.StringVar(&opts.Dialect, "dialect", "auto", "pi-family dialect: auto, pi, omp or xcsh")
	fl.StringVar(&opts.ExtractImages, "extract-images", "", "Write the images of the shown context to files in `DIR` (pi family)")
	fl.BoolVar(&opts.ResolveBlobs, "resolve-blobs", true, "--json: inline blob images as base64 as the agent does on load (oh-my-pi, xcsh)")
	fl.StringVar(&opts.LeafMode, "leaf-mode", "last-prompt", "Claude Code leaf choice: last-prompt, picker, resume or file-order")
	fl.BoolVar(&opts.AcrossCompactions, "across-compactions", false, "Claude Code: follow logicalParentUuid over compaction boundaries (whole history)")
	return cmd
}

// Run runs show.
func Run(opts *Options) error {
	if handled, err := runOpenCode(opts); handled {
		return err
	}
	if handled, err := runOpenClawDB(opts); handled {
		return err
	}
	ref, err := opts.Factory.ResolveSession(opts.Session)
	if err != nil {
		return err
	}
	if opts.ExtractImages != "" && ref.Format != session.FormatPi {
		return cmdutil.UsageErrorf("--extract-images works for pi-family sessions (pi, oh-my-pi, xcsh), not %s", ref.Format)
	}
	switch ref.Format {
	case session.FormatPi:
		return runPi(opts, ref)
	case session.FormatClaude:
		return runClaude(opts, ref)
	case session.FormatAgentCore:
		return runAgentCore(opts, ref)
	}
	return fmt.Errorf("%s: format %q is not supported by show yet", ref.Path, ref.Format)
}

func runPi(opts *Options, ref session.Ref) error {
	f, leaf, err := sessopen.Pi(opts.IO, ref.Path, opts.Dialect, opts.Leaf)
	if err != nil {
		return err
	}
	st := render.NewStyles(opts.IO)
	warn := func(ctx *pi.Context) {
		if opts.IO.Quiet() {
			return
		}
		for _, w := range ctx.Warnings {
			fmt.Fprintf(opts.IO.ErrOut, "%s: warning: %s\n", render.EscapeLine(ref.Path), render.EscapeLine(w))
		}
	}
	if opts.ExtractImages != "" {
		if err := extractImages(opts, f, leaf); err != nil {
			return err
		}
	}
	switch {
	case opts.Raw:
		ctx, path, err := f.PathTo(leaf)
		if err != nil {
			return err
		}
		warn(ctx)
		return writeRaw(opts.IO, f, path)
	case opts.JSON:
		return writePiJSON(opts.IO.Out, f, leaf, warn, opts.IO.IsStdoutTTY())
	}
	o := render.TranscriptOptions{Full: opts.Full, TTY: opts.IO.IsStdoutTTY(), Styles: st, ShowIDs: true}
	out := bufio.NewWriterSize(opts.IO.Out, 1<<16)
	n := 0
	var cur *pi.Context
	desc := images.NewDescriber(f.BlobDir, f.Dialect == pi.DialectOmp || f.Dialect == pi.DialectXcsh)
	ctx, err := f.StreamContext(leaf, func(ctx *pi.Context) error {
		cur = ctx
		warn(ctx)
		render.DrawTranscriptHeader(out, f.TranscriptHeader(ctx), o)
		return nil
	}, func(raw []byte, src int) error {
		m := f.Message(cur, raw, src)
		desc.Message(&m, raw)
		render.DrawMessage(out, &m, o)
		n++
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(out, st.Dim.Sprintf("%d %s in context", n, plural(n, "message", "messages")))
	_ = ctx
	return out.Flush()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func writeRaw(io *iostreams.IOStreams, f *pi.File, path []int) error {
	w := bufio.NewWriterSize(io.Out, 1<<20)
	err := f.EachLine(path, func(_ int, l []byte) error {
		if io.IsStdoutTTY() {
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

// writePiJSON streams the context as one JSON object: the messages are
// written as they are rebuilt, never all held in memory.
func writePiJSON(out io.Writer, f *pi.File, leaf int, warn func(*pi.Context), pretty bool) error {
	var dst io.Writer = out
	var buf bytes.Buffer
	if pretty {
		dst = &buf
	}
	w := bufio.NewWriterSize(dst, 1<<20)
	enc := func(v any) []byte { b, _ := json.Marshal(v); return b }
	n := 0
	ctx, err := f.StreamContext(leaf, func(ctx *pi.Context) error {
		warn(ctx)
		w.WriteString(`{"format":"pi","dialect":`)
		w.Write(enc(string(f.Dialect)))
		w.WriteString(`,"path":`)
		w.Write(enc(f.Path))
		w.WriteString(`,"sessionId":`)
		w.Write(enc(f.Header.ID))
		w.WriteString(`,"leafId":`)
		if ctx.Leaf == tree.None {
			w.WriteString("null")
		} else {
			w.Write(enc(f.DisplayID(ctx.Leaf)))
		}
		w.WriteString(`,"messages":[`)
		return nil
	}, func(m []byte, src int) error {
		if n > 0 {
			w.WriteByte(',')
		}
		n++
		_, err := w.Write(m)
		return err
	})
	if err != nil {
		return err
	}
	w.WriteByte(']')
	for _, m := range ctx.Fields {
		if m.Value == nil {
			continue
		}
		w.WriteByte(',')
		w.Write(enc(m.Key))
		w.WriteByte(':')
		w.Write(m.Value)
	}
	warnings := ctx.Warnings
	if warnings == nil {
		warnings = []string{}
	}
	w.WriteString(`,"warnings":`)
	w.Write(enc(warnings))
	w.WriteString("}\n")
	if err := w.Flush(); err != nil {
		return err
	}
	if pretty {
		var ind bytes.Buffer
		if err := json.Indent(&ind, buf.Bytes(), "", "  "); err != nil {
			_, err = out.Write(buf.Bytes())
			return err
		}
		_, err := out.Write(ind.Bytes())
		return err
	}
	return nil
}

// extractImages writes the images of the context to opts.ExtractImages (a
// pass of its own, so every output mode can use it) and lists them on
// stderr.
func extractImages(opts *Options, f *pi.File, leaf int) error {
	x, err := images.NewExtractor(opts.ExtractImages, f.BlobDir)
	if err != nil {
		return err
	}
	_, err = f.StreamContext(leaf, nil, func(raw []byte, src int) error {
		id := ""
		if src >= 0 {
			id = f.DisplayID(src)
		}
		return x.Add(raw, id)
	})
	if cerr := x.Close(); err == nil {
		err = cerr
	}
	if opts.IO.Quiet() {
		return err
	}
	for _, w := range x.Written {
		verb := "wrote"
		if w.Kept {
			verb = "already there:"
		}
		fmt.Fprintf(opts.IO.ErrOut, "%s %s (%s, %s)\n", verb, render.EscapeLine(w.Path), render.EscapeLine(w.MIME), render.HumanBytes(w.Bytes))
	}
	for _, s := range x.Skipped {
		fmt.Fprintf(opts.IO.ErrOut, "skipped image %d of entry %s: %s\n", s.N, render.EscapeLine(s.ID), render.EscapeLine(s.Reason))
	}
	if err != nil {
		return err
	}
	if len(x.Written) == 0 && len(x.Skipped) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "no images in the shown context")
	}
	return nil
}
