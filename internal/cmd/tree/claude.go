package tree

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/cmd/sessopen"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/session"
)

// runClaude draws a Claude Code transcript's record DAG, with its subagent
// transcripts under the tool calls that spawned them.
func runClaude(opts *Options, ref session.Ref) error {
	f, mode, choice, err := sessopen.Claude(opts.IO, ref.Path, opts.LeafMode)
	if err != nil {
		return err
	}
	defer f.Close()
	st := render.NewStyles(opts.IO)
	quiet := opts.IO.Quiet()
	if !quiet && choice.Disagree {
		fmt.Fprintf(opts.IO.ErrOut, "%s: warning: %s (marking %s; --leaf-mode picks another)\n",
			render.EscapeLine(ref.Path), render.EscapeLine(choice.Summary()), mode)
	}
	files, err := claude.FindSubagents(ref.Path)
	if err != nil && !quiet {
		fmt.Fprintf(opts.IO.ErrOut, "%s: warning: subagents: %v\n", render.EscapeLine(ref.Path), err)
	}
	subs := f.LinkSubagents(files)
	if opts.JSON && !opts.IO.IsStdoutTTY() {
		// streamed from the index: no tree model in memory
		if err := f.WriteTreeJSON(opts.IO.Out, ref.Path, mode, opts.Leaf, subs); err != nil {
			if opts.Leaf != "" {
				return cmdutil.UsageErrorf("--leaf: %v", err)
			}
			return err
		}
		return nil
	}
	t, err := f.Tree(mode)
	if err != nil {
		return err
	}
	if opts.Leaf != "" {
		if err := t.SetLeaf(f, opts.Leaf); err != nil {
			return cmdutil.UsageErrorf("--leaf: %v", err)
		}
	}
	if opts.JSON {
		return render.JSON(opts.IO.Out, t.JSON(ref.Path, mode, choice, subs), true)
	}
	v := f.View(t, subs)
	defer v.Close()
	o := render.TreeOptions{Full: opts.Full, TTY: opts.IO.IsStdoutTTY(), Styles: st, ShortIDs: 8, FlatLast: true}
	if opts.IO.IsStdoutTTY() {
		o.Width = opts.IO.TerminalWidth()
	}
	title := f.Title()
	if title == "" {
		title = "(untitled)"
	}
	head := fmt.Sprintf("claude-code session %s · %s · %d records", strings.TrimSuffix(filepath.Base(ref.Path), ".jsonl"), title, len(t.Nodes))
	if t.Progress > 0 {
		head += fmt.Sprintf(" · %d legacy progress lines bridged", t.Progress)
	}
	fmt.Fprintln(opts.IO.Out, st.Dim.Sprint(render.EscapeLine(head)))
	draw := func(mt *model.Tree) error {
		rows := render.TreeRows(mt, o)
		var nodes []int
		for _, r := range rows {
			if r.Node >= 0 {
				nodes = append(nodes, r.Node)
			}
		}
		v.FillText(mt, nodes)
		return render.DrawTree(opts.IO.Out, mt, rows, o)
	}
	if err := draw(v.Tree); err != nil {
		return err
	}
	for _, g := range v.Groups {
		fmt.Fprintln(opts.IO.Out, st.Warn.Sprint("\n"+render.EscapeLine(g.Title)))
		if err := draw(g.Tree); err != nil {
			return err
		}
	}
	render.TreeFooter(opts.IO.Out, v.Tree, st)
	return nil
}
