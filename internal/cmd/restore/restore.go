// Package restore implements `sessctl restore`: put a session archived by
// `sessctl prune` back where it was, byte for byte.
package restore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/archive"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/spf13/cobra"
)

// Options are the inputs of restore.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool
	Args    []string
	List    bool
	DryRun  bool
	Keep    bool
}

// NewCmd builds the restore command; runF replaces Run in tests.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "restore [ARCHIVE|SESSION-ID]...",
		Short: "Put sessions archived by prune back where they were",
		Long: `Put archived sessions back, byte for byte: every file is decompressed into a
temp file beside its original place, checked against the SHA-256 in the
archive's manifest, given its mode and modification time, and published
without replacing anything. A file already there with the same bytes is
left as is; one with other bytes makes restore refuse the whole archive
before anything is written. The archive is removed after a complete
restore unless --keep-archive.

An argument is an archive folder (or its name under
$XDG_DATA_HOME/sessctl/archive) or a session id or id prefix (its most
recent archive). --list lists the archives.`,
		Example: `  sessctl restore --list
  sessctl restore 0199aaaa`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.JSON, opts.Args = f.JSON, args
			if !opts.List && len(args) == 0 {
				return cmdutil.FlagErrorf("name an archive or session id, or use --list")
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.List, "list", false, "List the archives")
	fl.BoolVarP(&opts.DryRun, "dry-run", "n", false, "Check everything, write nothing")
	fl.BoolVar(&opts.Keep, "keep-archive", false, "Keep the archive after restoring")
	return cmd
}

// Root is the archive root: $XDG_DATA_HOME/sessctl/archive.
func Root(getenv func(string) string) string {
	return filepath.Join(discover.Env{Getenv: getenv}.DataHome(), "sessctl", "archive")
}

// Result is one restored archive.
type Result struct {
	Archive string               `json:"archive"`
	Agent   string               `json:"agent"`
	ID      string               `json:"id"`
	Files   []archive.FileResult `json:"files"`
	Removed bool                 `json:"archiveRemoved"`
}

// Run runs restore.
func Run(opts *Options) error {
	root := Root(opts.Factory.Getenv)
	list, err := archive.List(root)
	if err != nil {
		return err
	}
	if opts.List {
		if opts.JSON {
			if list == nil {
				list = []archive.Archived{}
			}
			return render.JSON(opts.IO.Out, list, opts.IO.IsStdoutTTY())
		}
		for _, a := range list {
			m := a.Manifest
			fmt.Fprintf(opts.IO.Out, "%s  %s  %s  %d files  %d bytes  %s\n", render.EscapeLine(a.Name), m.Agent,
				render.EscapeLine(m.ID), len(m.Entries), m.Bytes(), render.EscapeLine(m.Cwd))
		}
		return nil
	}
	var results []Result
	for _, arg := range opts.Args {
		dir, err := find(root, list, arg)
		if err != nil {
			return err
		}
		m, err := archive.Open(dir)
		if err != nil {
			return err
		}
		files, err := archive.Restore(dir, opts.DryRun)
		r := Result{Archive: dir, Agent: m.Agent, ID: m.ID, Files: files}
		if err != nil {
			return err
		}
		if !opts.DryRun && !opts.Keep {
			if err := archive.Remove(dir); err != nil {
				return fmt.Errorf("restored, but removing the archive failed: %w", err)
			}
			r.Removed = true
		}
		results = append(results, r)
	}
	if opts.JSON {
		return render.JSON(opts.IO.Out, results, opts.IO.IsStdoutTTY())
	}
	for _, r := range results {
		for _, fr := range r.Files {
			fmt.Fprintf(opts.IO.Out, "%-13s %s (%d bytes)\n", fr.Action, render.EscapeLine(fr.Path), fr.Size)
		}
		if r.Removed {
			fmt.Fprintf(opts.IO.Out, "archive %s removed\n", render.EscapeLine(r.Archive))
		}
	}
	return nil
}

// find resolves an argument to an archive folder.
func find(root string, list []archive.Archived, arg string) (string, error) {
	if strings.Contains(arg, "/") {
		if st, err := os.Stat(arg); err == nil && st.IsDir() {
			return arg, nil
		}
		return "", cmdutil.UsageErrorf("%s: no archive there", arg)
	}
	for _, a := range list {
		if a.Name == arg {
			return a.Dir, nil
		}
	}
	var match []archive.Archived
	ids := map[string]bool{}
	for _, a := range list {
		if strings.HasPrefix(a.Manifest.ID, arg) {
			match = append(match, a)
			ids[a.Manifest.ID] = true
		}
	}
	switch {
	case len(match) == 0:
		return "", cmdutil.UsageErrorf("no archive named %q or of a session with that id under %s", arg, root)
	case len(ids) > 1:
		return "", cmdutil.UsageErrorf("%q matches archives of %d sessions: give more of the id", arg, len(ids))
	}
	// The most recent archive of that session (names start with the time).
	return match[len(match)-1].Dir, nil
}
