// Package tree implements `sessctl tree`: the branch structure of a session.
package tree

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sessctl/sessctl/internal/cmd/sessopen"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/session"
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

Exit status: 0 drawn; 1 the file cannot be read or has no valid header;
2 usage error.`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			opts.JSON = f.JSON
			if _, err := pi.ParseDialect(opts.Dialect); err != nil {
				return cmdutil.FlagErrorf("%v", err)
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Leaf, "leaf", "", "Mark the path to this entry (id or unique prefix) as active")
	fl.BoolVar(&opts.Full, "full", false, "Draw every entry; do not fold long linear runs")
	fl.StringVar(&opts.Dialect, "dialect", "auto", "pi-family dialect: auto, pi, omp or xcsh")
	fl.StringVar(&opts.LeafMode, "leaf-mode", "last-prompt", "Claude Code leaf choice: last-prompt, picker, resume or file-order")
	return cmd
}

// Run runs tree.
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
	switch ref.Format {
	case session.FormatPi:
		return runPi(opts, ref)
	case session.FormatClaude:
		return runClaude(opts, ref)
	case session.FormatAgentCore:
		return runAgentCore(opts, ref)
	}
	return fmt.Errorf("%s: format %q is not supported by tree yet", ref.Path, ref.Format)
}

func runPi(opts *Options, ref session.Ref) error {
	f, leaf, err := sessopen.Pi(opts.IO, ref.Path, opts.Dialect, opts.Leaf)
	if err != nil {
		return err
	}
	st := render.NewStyles(opts.IO)
	if opts.JSON {
		if !opts.IO.IsStdoutTTY() {
			return f.WriteTreeJSON(opts.IO.Out, leaf) // streamed: no copy of the tree in memory
		}
		var buf bytes.Buffer
		if err := f.WriteTreeJSON(&buf, leaf); err != nil {
			return err
		}
		var ind bytes.Buffer
		if err := json.Indent(&ind, buf.Bytes(), "", "  "); err != nil {
			return err
		}
		_, err := opts.IO.Out.Write(ind.Bytes())
		return err
	}
	o := render.TreeOptions{Full: opts.Full, TTY: opts.IO.IsStdoutTTY(), Styles: st, ShortIDs: 8}
	if opts.IO.IsStdoutTTY() {
		o.Width = opts.IO.TerminalWidth()
	}
	if f.Header != nil {
		title := f.Name
		if title == "" {
			title = "(untitled)"
		}
		fmt.Fprintln(opts.IO.Out, st.Dim.Sprint(render.EscapeLine(fmt.Sprintf("%s session %s · %s · %d entries", f.Dialect, f.Header.ID, title, len(f.Entries)))))
	}
	return f.DrawTree(opts.IO.Out, leaf, o) // streamed: no model of every node
}
