// Package tree implements `sessctl tree`: the branch structure of a session.
package tree

import (
	"fmt"
	"io"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of tree.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	Session string
	Leaf    string
	Full    bool
	Dialect string

	// Claude Code
	LeafMode string
}

// NewCmd builds the tree command. runF replaces the run function in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "tree <session>",
		Short: "Draw the branch structure of a session",
		Long: `Draw every entry of a session as a tree, like pi's /tree: one line per entry
with its short id, type or role, first line of text, label and time. The
path to the active leaf is marked ● (others ○) and the active leaf is
flagged. Linear runs longer than a dozen entries are folded unless --full.
Orphans (entries whose parent is missing), parent cycles and duplicate ids
are drawn as extra roots and listed below the tree with line numbers.

<session> is a file path, a session id, or a unique id prefix.

--json prints {"leafId","roots","nodes":[{"id","parentId","type","role",
"label","line","children"}],"orphans","cycles","duplicates"} with nodes in
file order and effective labels (the last set or clear wins).

Claude Code transcripts: one node per uuid (legacy progress lines bridged
over), forks labelled (rewind/edit, retry after api_error, parallel tool
use, progress fork), sidechains marked, compactions drawn as separators with
their logicalParentUuid, subagent transcripts under the Task/Agent call that
spawned them (else in a group of their own). --leaf-mode picks the leaf as
for show; --json adds "leafModes", "fork", "isSidechain", "subagents".

OpenCode: a data directory or database draws every session (child sessions
under their parent); one session ("<store>#ses_…", a ses_ id or an export
file) draws its family with its messages and parts, the messages OpenCode
sends to the model marked ● and the newest of them the active leaf.

Exit status: 0 drawn; 1 the file cannot be read or has no valid header;
2 usage error.`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			opts.JSON = f.JSON
			if err := f.CheckOpenOptions(opts.openOptions()); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	cmdutil.AddLeafFlag(fl, &opts.Leaf, "Mark the path to this entry (id or unique prefix) as active")
	fl.BoolVar(&opts.Full, "full", false, "Draw every entry; do not fold long linear runs")
	cmdutil.AddDialectFlag(fl, &opts.Dialect)
	cmdutil.AddLeafModeFlag(fl, &opts.LeafMode)
	return cmd
}

func (opts *Options) openOptions() sessfmt.OpenOptions {
	return sessfmt.OpenOptions{Dialect: opts.Dialect, LeafMode: opts.LeafMode, Leaf: opts.Leaf}
}

// Run runs tree: open the session and draw its tree (or write its JSON)
// through the session's Treer capability.
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
	t, ok := s.(sessfmt.Treer)
	if !ok {
		return sessfmt.Unsupported(s, "tree")
	}
	f.PrintLeafChoice(s, choice, "marking")
	if tn, ok := s.(sessfmt.TreeNoticer); ok {
		for _, n := range tn.TreeNotices() {
			f.PrintNotice(ref, n)
		}
	}
	tty := opts.IO.IsStdoutTTY()
	if opts.JSON {
		return cmdutil.UsageIf(render.JSONStream(opts.IO.Out, tty, func(w io.Writer) error {
			return t.WriteTreeJSON(w, tty)
		}))
	}
	v, err := t.TreeView()
	if err != nil {
		return cmdutil.UsageIf(err)
	}
	if v.Close != nil {
		defer v.Close()
	}
	for _, n := range v.Notices {
		f.PrintNotice(ref, n)
	}
	return draw(opts.IO, v, opts.Full)
}

// draw prints a tree view: its header, the main tree, the titled groups
// and the legend.
func draw(ios *iostreams.IOStreams, v *sessfmt.TreeView, full bool) error {
	st := render.NewStyles(ios)
	o := render.TreeOptions{Full: full, TTY: ios.IsStdoutTTY(), Styles: st, ShortIDs: v.ShortIDs, FlatLast: v.FlatLast}
	if ios.IsStdoutTTY() {
		o.Width = ios.TerminalWidth()
	}
	if v.Header != "" {
		fmt.Fprintln(ios.Out, st.Dim.Sprint(render.EscapeLine(v.Header)))
	}
	one := func(mt *model.Tree) error {
		rows := render.TreeRows(mt, o)
		if v.Fill != nil {
			var nodes []int
			for _, r := range rows {
				if r.Node >= 0 {
					nodes = append(nodes, r.Node)
				}
			}
			if err := v.Fill(mt, nodes); err != nil {
				return err
			}
		}
		return render.DrawTree(ios.Out, mt, rows, o)
	}
	if err := one(v.Tree); err != nil {
		return err
	}
	for _, g := range v.Groups {
		fmt.Fprintln(ios.Out, st.Warn.Sprint("\n"+render.EscapeLine(g.Title)))
		if err := one(g.Tree); err != nil {
			return err
		}
	}
	if v.Footer {
		render.TreeFooter(ios.Out, v.Tree, st)
	}
	return nil
}
