// Package export implements `sessctl export`: a session kept in a database
// written out as a pi JSONL file.
package export

import (
	"bufio"
	"fmt"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/format/openclaw"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/safewrite"
	"github.com/spf13/cobra"
)

// Options are the inputs of export.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	Session string
	Format  string
	Output  string
}

// NewCmd builds the export command.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "export <session> --format jsonl [-o <path>]",
		Short: "Write a database-kept session out as a pi JSONL file",
		Long: `Write a session that an agent keeps in a database out as a pi-format JSONL
file, which every other sessctl command (and pi itself) can read.

Supported: OpenClaw's SQLite era (agents/<id>/agent/openclaw-agent.sqlite),
named as <database>#<session id> or by a session id that list shows. The
transcript events are written in order (pi lines, one per line); a header is
added when the session has none. The database is opened read-only and never
changed.

Without -o the JSONL goes to stdout. With -o the file is created atomically
and never overwrites an existing one.

Exit status: 0 written; 1 error; 2 usage error.`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Session = args[0]
			opts.JSON = f.JSON
			if opts.Format != "jsonl" {
				return cmdutil.FlagErrorf("--format %q is not supported: use jsonl", opts.Format)
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "jsonl", "Output format (jsonl: pi session lines)")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "Write to this new file instead of stdout")
	return cmd
}

// Run runs export.
func Run(opts *Options) error {
	db, id, ok := openclaw.ParseDBRef(opts.Session)
	if !ok {
		ref, err := opts.Factory.ResolveSession(opts.Session)
		if err != nil {
			return err
		}
		if db, id, ok = openclaw.ParseDBRef(ref.Path); !ok {
			return fmt.Errorf("%s is already a session file (%s); export writes out sessions kept in a database (OpenClaw's openclaw-agent.sqlite)", render.EscapeLine(ref.Path), ref.Format)
		}
	}
	d, err := openclaw.OpenAgentDB(db)
	if err != nil {
		return err
	}
	defer d.Close()
	if opts.Output == "" {
		w := bufio.NewWriterSize(opts.IO.Out, 1<<20)
		n, err := d.Export(id, w)
		if err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if !opts.IO.Quiet() {
			fmt.Fprintf(opts.IO.ErrOut, "exported %d lines of session %s\n", n, render.EscapeLine(id))
		}
		return nil
	}
	w, err := safewrite.Create(opts.Output, safewrite.Options{Mode: 0o600})
	if err != nil {
		return err
	}
	n, err := d.Export(id, w)
	if err != nil {
		w.Abort()
		return err
	}
	if _, err := w.Commit(); err != nil {
		return err
	}
	if !opts.IO.Quiet() {
		fmt.Fprintf(opts.IO.ErrOut, "exported %d lines of session %s to %s\n", n, render.EscapeLine(id), render.EscapeLine(opts.Output))
	}
	return nil
}
