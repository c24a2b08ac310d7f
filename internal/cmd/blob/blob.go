// Package blob implements `sessctl blob-gc` (also `sessctl blob gc`) and
// `sessctl blob verify`: garbage collection and verification of the blob
// stores of oh-my-pi and xcsh, built on internal/blob (mark, plan, apply,
// verify) and internal/discover (where the stores and their session roots
// are).
package blob

import (
	"fmt"
	"path/filepath"
	"runtime"
	"time"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/spf13/cobra"
)

// NewCmd builds the `blob` parent command with its verify and gc
// subcommands. runGC and runVerify replace the run functions in tests.
func NewCmd(f *cmdutil.Factory, runGC func(*GCOptions) error, runVerify func(*VerifyOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "blob <command>",
		Short: "Verify and garbage-collect the blob stores of oh-my-pi and xcsh",
		Long: `oh-my-pi and xcsh keep large images out of session files, in a blob
store (<agent dir>/blobs/<sha256>), and write "blob:sha256:<hex>" in the
session line instead. These commands look after those stores:

  sessctl blob verify   check every blob (or the ones sessions reference)
  sessctl blob gc       delete blobs no session references (same as blob-gc)

docs/blob.md describes where the stores are and how gc stays safe.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdutil.FlagErrorf("unknown command %q for %q", args[0], cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(NewVerifyCmd(f, runVerify))
	gc := NewGCCmd(f, runGC)
	gc.Use = "gc"
	gc.Aliases = nil
	cmd.AddCommand(gc)
	return cmd
}

// storeFlags are the flags every blob command shares.
type storeFlags struct {
	Store        string
	SessionsDirs []string
}

func (s *storeFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&s.Store, "store", "", "Use only this blob store (default: every store of oh-my-pi and xcsh found)")
	fl.StringArrayVar(&s.SessionsDirs, "sessions-dir", nil, "Also read the session files under `DIR` (repeatable; config blob.sessionsDirs adds more)")
}

// stores finds the blob stores to work on: --store DIR, or every store
// discovered from the environment, each with the session roots of its own
// agent plus config `roots:` of that agent, config blob.sessionsDirs and
// --sessions-dir.
func stores(f *cmdutil.Factory, sf storeFlags) ([]discover.BlobStore, error) {
	env := discover.Env{Getenv: f.Getenv}
	var extra []discover.Root
	dirs := append([]string(nil), sf.SessionsDirs...)
	for i, d := range dirs {
		dirs[i] = env.ExpandHome(d)
		if abs, err := filepath.Abs(dirs[i]); err == nil {
			dirs[i] = abs
		}
	}
	if f.Config != nil {
		roots, err := discover.ConfigRoots(f.Config.Get("roots"), env)
		if err != nil {
			return nil, err
		}
		extra = roots
		cd, err := discover.ConfigSessionsDirs(f.Config.Get("blob.sessionsDirs"), env)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, cd...)
	}
	if sf.Store != "" {
		bs, err := discover.StoreAt(env, sf.Store, extra, dirs)
		if err != nil {
			return nil, err
		}
		return []discover.BlobStore{bs}, nil
	}
	return discover.BlobStores(env, extra, dirs), nil
}

// workers is the number of files read at once.
func workers() int { return min(max(runtime.NumCPU(), 2), 8) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// age formats how old something is: "45s", "12m", "5h", "3d".
func age(d time.Duration) string {
	switch {
	case d < 0:
		return "in the future"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	default:
		return fmt.Sprintf("%dd", int(d.Hours()/24))
	}
}

// noStoreHint is printed when no blob store was found.
const noStoreHint = "no blob store found (oh-my-pi: ~/.omp/agent/blobs or $XDG_DATA_HOME/omp/blobs, $PI_CODING_AGENT_DIR/blobs; xcsh: ~/.xcsh/agent/blobs); name one with --store DIR"
