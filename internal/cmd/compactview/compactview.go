// Package compactview implements `sessctl compact-view`: what compaction
// keeps and hides on a session's active path.
package compactview

import (
	"fmt"

	"github.com/sessctl/sessctl/internal/cmd/sessopen"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/session"
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

// Viewer builds the compact view of one session file of a format. Formats
// other than pi register theirs in Viewers.
type Viewer func(ref session.Ref, opts *Options) (*model.CompactView, error)

// Viewers holds the viewer of each format.
var Viewers = map[session.Format]Viewer{session.FormatPi: viewPi}

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
	cmd.Flags().StringVar(&opts.Leaf, "leaf", "", "Use the path to this entry (id or unique prefix) instead of the active leaf")
	cmd.Flags().BoolVar(&opts.Full, "full", false, "Print summaries whole")
	return cmd
}

// Run runs compact-view.
func Run(opts *Options) error {
	if handled, err := runOpenCode(opts); handled {
		return err
	}
	ref, err := opts.Factory.ResolveSession(opts.Session)
	if err != nil {
		return err
	}
	v, ok := Viewers[ref.Format]
	if !ok {
		return fmt.Errorf("%s: format %q is not supported by compact-view", ref.Path, ref.Format)
	}
	cv, err := v(ref, opts)
	if err != nil {
		return err
	}
	if opts.JSON {
		return render.JSON(opts.IO.Out, cv, opts.IO.IsStdoutTTY())
	}
	render.DrawCompactView(opts.IO.Out, cv, opts.Full, opts.IO.IsStdoutTTY(), render.NewStyles(opts.IO))
	return nil
}

func viewPi(ref session.Ref, opts *Options) (*model.CompactView, error) {
	f, leaf, err := sessopen.Pi(opts.IO, ref.Path, "", opts.Leaf)
	if err != nil {
		return nil, err
	}
	return f.CompactView(leaf)
}
