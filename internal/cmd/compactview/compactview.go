// Package compactview implements `sessctl compact-view`: what compaction
// keeps and hides on a session's active path.
package compactview

import (
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of compact-view.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	Session string
	Leaf    string
	Full    bool
}

// NewCmd builds the compact-view command.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "compact-view <session>",
		Short: "Show what compaction keeps and hides on the active path",
		Long: `List every compaction on the path to the active leaf: when it happened, what
triggered it, the tokens before, its summary, which entries it hides from the
model and which it keeps (counts and id ranges), and anything it preserved.
The last compaction is the one in effect.

--json prints {"format","path","leafId","pathEntries","compactions":[{"id",
"line","timestamp","trigger","tokensBefore","summary","firstKeptEntryId",
"firstKeptOnPath","inEffect","hidden","kept","after","preserved","notes"}],
"warnings"}, where hidden, kept and after are {"entries","messages",
"firstId","lastId"}.

Exit status: 0 shown; 1 unreadable file or no valid header; 2 usage error.`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			opts.JSON = f.JSON
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	cmdutil.AddLeafFlag(cmd.Flags(), &opts.Leaf, "Use the path to this entry (id or unique prefix) instead of the active leaf")
	cmd.Flags().BoolVar(&opts.Full, "full", false, "Print summaries whole")
	return cmd
}

// Run runs compact-view: open the session and print the compactions its
// Compacter capability lists.
func Run(opts *Options) error {
	f := opts.Factory
	s, err := f.OpenSession(opts.Session, sessfmt.OpenOptions{Leaf: opts.Leaf})
	if err != nil {
		return err
	}
	defer s.Close()
	f.PrintProblems(s, "")
	c, ok := s.(sessfmt.Compacter)
	if !ok {
		return sessfmt.Unsupported(s, "compact-view")
	}
	cv, err := c.CompactView()
	if err != nil {
		return cmdutil.UsageIf(err)
	}
	if opts.JSON {
		return render.JSON(opts.IO.Out, cv, opts.IO.IsStdoutTTY())
	}
	render.DrawCompactView(opts.IO.Out, cv, opts.Full, opts.IO.IsStdoutTTY(), render.NewStyles(opts.IO))
	return nil
}
