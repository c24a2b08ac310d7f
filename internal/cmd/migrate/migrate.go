// Package migrate implements `sessctl migrate`: pi-family files from format
// version 1 or 2 to version 3, exactly as pi does, without losing a byte.
package migrate

import (
	"errors"
	"fmt"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/spf13/cobra"
)

// Options are the inputs of migrate.
type Options struct {
	IO      *iostreams.IOStreams
	Factory *cmdutil.Factory
	JSON    bool

	Args     []string
	All      bool
	Check    bool
	DryRun   bool
	NoBackup bool
}

// NewCmd builds the migrate command.
func NewCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IO, Factory: f}
	cmd := &cobra.Command{
		Use:   "migrate {<session> | <dir>}... | --all",
		Short: "Bring pi-family session files from version 1 or 2 to version 3",
		Long: `Migrate pi, oh-my-pi and xcsh session files from format version 1 or 2 to
version 3 exactly as pi does when it opens them: fresh 8-hex ids and a
linear chain in file order (v1), firstKeptEntryIndex (counted over the whole
file with the header at 0) turned into firstKeptEntryId, message role
hookMessage renamed custom (v2), and header version 3.

Unlike pi, which rewrites the file in place and drops lines it cannot
parse, sessctl keeps every other byte of every line that needs no change,
unknown fields in place, and lines it does not understand as they are; it
writes atomically, keeps a backup (<file>.sessctl-<UTC time>.bak) unless
--no-backup, checks new ids against every id in the file, and refuses while
the agent holds its lock or changes the file. Version 3 files are not
touched, so migrating twice changes nothing.

A directory is searched for *.jsonl files; --all migrates every discovered
pi, oh-my-pi and xcsh session. Other formats are skipped.

--check changes nothing and exits 3 if any file needs migration (for CI);
--dry-run says what would change.

Exit status: 0 done (or nothing to do); 3 with --check or --dry-run when a
file needs migration; 1 a file could not be read or written; 2 usage error.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			opts.JSON = f.JSON
			if len(args) == 0 && !opts.All {
				return cmdutil.FlagErrorf("name session files or directories, or use --all")
			}
			if runF != nil {
				return runF(opts)
			}
			return Run(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.All, "all", false, "Migrate every discovered pi, oh-my-pi and xcsh session")
	fl.BoolVar(&opts.Check, "check", false, "Change nothing; exit 3 if any file needs migration")
	fl.BoolVarP(&opts.DryRun, "dry-run", "n", false, "Change nothing; say what would change")
	fl.BoolVar(&opts.NoBackup, "no-backup", false, "Do not keep a .bak copy of migrated files")
	return cmd
}

// FileReport is the result for one file.
type FileReport struct {
	Path        string `json:"path"`
	Status      string `json:"status"` // migrated, would-migrate, current, skipped, error
	FromVersion int    `json:"fromVersion,omitempty"`
	ToVersion   int    `json:"toVersion,omitempty"`
	Changes     string `json:"changes,omitempty"`
	Backup      string `json:"backup,omitempty"`
	Error       string `json:"error,omitempty"`
}

// Run runs migrate.
func Run(opts *Options) error {
	paths, err := expand(opts)
	if err != nil {
		return err
	}
	var reports []FileReport
	counts := map[string]int{}
	for _, p := range paths {
		r := migrateOne(p, opts)
		counts[r.Status]++
		reports = append(reports, r)
	}
	if opts.JSON {
		if reports == nil {
			reports = []FileReport{}
		}
		if err := render.JSON(opts.IO.Out, struct {
			Files   []FileReport   `json:"files"`
			Summary map[string]int `json:"summary"`
		}{reports, counts}, opts.IO.IsStdoutTTY()); err != nil {
			return err
		}
	} else {
		for _, r := range reports {
			line := fmt.Sprintf("%s: %s", render.EscapeLine(r.Path), r.Status)
			switch r.Status {
			case "migrated", "would-migrate":
				line += fmt.Sprintf(" (v%d → v%d: %s)", r.FromVersion, r.ToVersion, r.Changes)
				if r.Backup != "" && r.Status == "migrated" {
					line += "; backup " + render.EscapeLine(r.Backup)
				}
			case "error", "skipped":
				line += ": " + render.EscapeLine(r.Error)
			}
			fmt.Fprintln(opts.IO.Out, line)
		}
		files, errs := "files", "errors"
		if len(reports) == 1 {
			files = "file"
		}
		if counts["error"] == 1 {
			errs = "error"
		}
		fmt.Fprintf(opts.IO.Out, "\n%d %s: %d migrated, %d would migrate, %d current, %d skipped, %d %s\n",
			len(reports), files, counts["migrated"], counts["would-migrate"], counts["current"], counts["skipped"], counts["error"], errs)
	}
	switch {
	case counts["error"] > 0:
		return cmdutil.SilentError
	case counts["would-migrate"] > 0:
		return cmdutil.ErrProblems
	}
	return nil
}

func migrateOne(path string, opts *Options) FileReport {
	r := FileReport{Path: path}
	s, err := opts.Factory.Registry.Open(path, sessfmt.OpenOptions{})
	if err != nil {
		var ns *sessfmt.NotSessionError
		if errors.As(err, &ns) {
			r.Status, r.Error = "skipped", "cannot tell which agent wrote this file"
			return r
		}
		r.Status, r.Error = "error", err.Error()
		return r
	}
	defer s.Close()
	m, ok := s.(sessfmt.Migrator)
	if !ok {
		agent := s.Ref().Agent
		if agent == "" {
			agent = s.Ref().Format
		}
		r.Status, r.Error = "skipped", fmt.Sprintf("%s session, not pi-family (migrate is not supported for this agent)", agent)
		return r
	}
	res, err := m.Migrate(sessfmt.MigrateOptions{DryRun: opts.DryRun || opts.Check, NoBackup: opts.NoBackup})
	switch {
	case errors.Is(err, sessfmt.ErrUnsupported):
		r.Status, r.Error = "skipped", err.Error()
		return r
	case err != nil:
		r.Status, r.Error = "error", err.Error()
		return r
	case res.Skipped != "":
		r.Status, r.Error = "skipped", res.Skipped
		return r
	}
	r.FromVersion, r.ToVersion = res.FromVersion, res.ToVersion
	if !res.Needed {
		r.Status = "current"
		return r
	}
	r.Status = "migrated"
	if opts.DryRun || opts.Check {
		r.Status = "would-migrate"
	}
	r.Changes, r.Backup = res.Changes, res.Backup
	return r
}

func expand(opts *Options) ([]string, error) {
	reg := opts.Factory.Registry
	return opts.Factory.ExpandArgs(opts.Args, opts.All, reg.Claims)
}
