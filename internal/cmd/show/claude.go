package show

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/cmd/sessopen"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/session"
)

// runClaude shows a Claude Code transcript: the conversation the loader
// would resume from the chosen leaf.
func runClaude(opts *Options, ref session.Ref) error {
	f, mode, choice, err := sessopen.Claude(opts.IO, ref.Path, opts.LeafMode)
	if err != nil {
		return err
	}
	defer f.Close()
	st := render.NewStyles(opts.IO)
	quiet := opts.IO.Quiet()
	leaf := opts.Leaf
	if leaf == "" {
		if leaf, err = f.Leaf(mode); err != nil {
			return err
		}
		if leaf == "" {
			return fmt.Errorf("%s has no transcript messages to show", ref.Path)
		}
	}
	p, err := f.Walk(leaf, opts.AcrossCompactions)
	if err != nil {
		if opts.Leaf != "" {
			return cmdutil.UsageErrorf("--leaf: %v", err)
		}
		return err
	}
	var warnings []string
	if choice.Disagree {
		warnings = append(warnings, choice.Summary())
	}
	for _, w := range p.Warnings {
		warnings = append(warnings, fmt.Sprintf("%s [%s]", w.Msg, w.Code))
	}
	if !quiet {
		if choice.Disagree {
			fmt.Fprintf(opts.IO.ErrOut, "%s: warning: %s (showing %s; --leaf-mode picks another)\n",
				render.EscapeLine(ref.Path), render.EscapeLine(choice.Summary()), mode)
		}
		for _, w := range p.Warnings {
			if w.Code == claude.WarnRescued || w.Code == claude.WarnLeafDescendants {
				continue // normal loader behaviour, kept in --json
			}
			fmt.Fprintf(opts.IO.ErrOut, "%s:%d: warning: %s [%s]\n", render.EscapeLine(ref.Path), w.Line, render.EscapeLine(w.Msg), w.Code)
		}
	}
	switch {
	case opts.Raw:
		w := bufio.NewWriter(opts.IO.Out)
		for _, ln := range p.Lines(f) {
			l, err := f.RawLine(ln)
			if err != nil {
				return err
			}
			if opts.IO.IsStdoutTTY() {
				l = []byte(render.Escape(string(l)))
			}
			w.Write(l)
			w.WriteByte('\n')
		}
		return w.Flush()
	case opts.JSON:
		return writeClaudeJSON(opts.IO.Out, f, p, mode, opts.Leaf != "", choice, opts.AcrossCompactions, warnings, opts.IO.IsStdoutTTY())
	}
	b := f.NewTranscript(p.Leaf, mode, opts.AcrossCompactions)
	if opts.Leaf != "" {
		b.T.Header[1] = fmt.Sprintf("leaf %s (--leaf)", p.Leaf)
	}
	if err := f.EachTurn(p, func(t *claude.Turn) error { b.Add(t); return nil }); err != nil {
		return err
	}
	return render.DrawTranscript(opts.IO.Out, &b.T, render.TranscriptOptions{
		Full: opts.Full, TTY: opts.IO.IsStdoutTTY(), Styles: st, ShowIDs: true, ShortIDLen: 8,
	})
}

// writeClaudeJSON streams {"format","path","sessionId","leafUuid","leafMode",
// "leafModes","acrossCompactions","messages":[...],"warnings":[...]}, one
// message decoded at a time.
func writeClaudeJSON(out io.Writer, f *claude.File, p *claude.Path, mode claude.LeafMode, explicit bool,
	choice claude.LeafChoice, across bool, warnings []string, pretty bool) error {
	var dst io.Writer = out
	var buf bytes.Buffer
	if pretty {
		dst = &buf
	}
	w := bufio.NewWriterSize(dst, 1<<20)
	enc := func(v any) []byte { b, _ := json.Marshal(v); return b }
	lm := string(mode)
	if explicit {
		lm = "explicit"
	}
	w.WriteString(`{"format":"claude-code","path":`)
	w.Write(enc(f.Path))
	w.WriteString(`,"sessionId":`)
	w.Write(enc(strings.TrimSuffix(filepath.Base(f.Path), ".jsonl")))
	w.WriteString(`,"leafUuid":`)
	w.Write(enc(p.Leaf))
	w.WriteString(`,"leafMode":`)
	w.Write(enc(lm))
	w.WriteString(`,"leafModes":`)
	w.Write(enc(choice))
	w.WriteString(`,"acrossCompactions":`)
	w.Write(enc(across))
	w.WriteString(`,"messages":[`)
	p.NoText = true
	first := true
	var tb []byte
	err := f.EachTurn(p, func(t *claude.Turn) error {
		if !first {
			w.WriteByte(',')
		}
		first = false
		tb = t.AppendJSON(tb[:0])
		_, err := w.Write(tb)
		return err
	})
	if err != nil {
		return err
	}
	if warnings == nil {
		warnings = []string{}
	}
	w.WriteString(`],"warnings":`)
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
