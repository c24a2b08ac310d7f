// Package fork implements `sessctl fork`: a branch into a new session file.
package fork

import (
	"fmt"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of fork.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	Session string
	Fork    sessfmt.ForkOptions
}

// NewCmd builds the fork command.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "fork <session> [--at <entry>] [-o <path>]",
		Short: "Write a branch of a session into a new session file",
		Long: `Write the path from the root to an entry (--at, default the active leaf)
into a new session file and print its path. The source is never changed.

pi family: the new file is named <time>_<uuid>.jsonl in the source's folder
(or -o PATH), its header's parentSession is the source path, and entries are
copied byte for byte. Label entries on the path are dropped and their
children re-chained to the label's parent (pi's own fork leaves them
orphaned), a compaction's firstKeptEntryId naming a dropped label moves to
the next kept entry, and the labels that target kept entries are re-added at
the end. Opening the fork gives exactly the context of the source at the
entry. --full copies the whole tree instead (pi's forkFrom).

Claude Code: the records Claude Code loads for the entry (a uuid or unique
prefix; default the leaf it resumes), chained one after another, each with
a new sessionId and forkedFrom {sessionId, messageUuid} (as /branch does),
into <new uuid>.jsonl in the same project folder (or -o PATH), mode 0600.
The fork is read back before it is published and must load the same
records as the source at the entry.

Exit status: 0 written; 1 error (nothing is written when the target exists);
2 usage error.`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			opts.JSON = f.JSON
			if opts.Fork.Full && opts.Fork.At != "" {
				return cmdutil.FlagErrorf("--full copies the whole tree; it does not take --at")
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Fork.At, "at", "", "Entry to fork at (id or unique prefix; default: the active leaf)")
	fl.BoolVar(&opts.Fork.Full, "full", false, "Copy the whole tree, all branches")
	fl.StringVarP(&opts.Fork.Output, "output", "o", "", "Path of the new session file")
	fl.BoolVarP(&opts.Fork.DryRun, "dry-run", "n", false, "Write nothing; say what would be written")
	return cmd
}

// Run runs fork.
func Run(opts *Options) error {
	s, err := opts.Factory.OpenSession(opts.Session, sessfmt.OpenOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	fkr, ok := s.(sessfmt.Forker)
	if !ok {
		return sessfmt.Unsupported(s, "fork")
	}
	res, err := fkr.Fork(opts.Fork)
	if err != nil {
		return err
	}
	if opts.JSON {
		if err := render.JSON(opts.IO.Out, res, opts.IO.IsStdoutTTY()); err != nil {
			return err
		}
	} else {
		switch {
		case res.DryRun:
			fmt.Fprintf(opts.IO.ErrOut, "would write %d entries to a new session (dry run, nothing written)\n", res.Entries)
		case !opts.IO.Quiet():
			fmt.Fprintf(opts.IO.ErrOut, "wrote %s to a new session %s\n", res.Summary, res.SessionID)
		}
		fmt.Fprintln(opts.IO.Out, render.EscapeLine(res.Path))
	}
	if !opts.IO.Quiet() {
		for _, n := range res.Notes {
			fmt.Fprintf(opts.IO.ErrOut, "note: %s\n", render.EscapeLine(n))
		}
	}
	return nil
}
