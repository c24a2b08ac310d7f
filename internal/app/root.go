// Package app builds the sessctl command tree and runs it.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/fsx"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// Version is set at build time with -ldflags.
var Version = "dev"

// Main runs sessctl with the process's arguments and returns the exit code.
func Main() int {
	f := &cmdutil.Factory{IO: iostreams.System(), Getenv: os.Getenv}
	return Run(f, os.Args[1:])
}

// Run runs sessctl with args on the given factory and returns the exit code.
func Run(f *cmdutil.Factory, args []string) int {
	root := NewRootCmd(f)
	root.SetArgs(args)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	cmd, err := root.ExecuteContextC(context.Background())
	if err == nil {
		return cmdutil.ExitOK
	}
	printError(f.IO.ErrOut, cmd, err)
	return cmdutil.ExitCode(err)
}

func printError(w io.Writer, cmd *cobra.Command, err error) {
	if errors.Is(err, cmdutil.SilentError) {
		return
	}
	var pe *cmdutil.ProblemsError
	if errors.As(err, &pe) && pe.Msg == "" {
		return
	}
	msg := render.Escape(err.Error()) // arguments and file content may carry control characters
	fmt.Fprintf(w, "sessctl: %s\n", msg)
	var fe *cmdutil.FlagError
	if errors.As(err, &fe) && cmd != nil {
		fmt.Fprintf(w, "\n%s", cmd.UsageString())
	}
}

// NewRootCmd builds the command tree.
func NewRootCmd(f *cmdutil.Factory) *cobra.Command {
	if f.Registry == nil {
		f.Registry = formats.New(f.Getenv)
		f.Registry.Lookup = func(id string) ([]sessfmt.Ref, error) { return lookupSessions(f, id) }
	}
	var (
		colorMode  string
		configPath string
		noConfig   bool
		quiet      bool
	)
	root := &cobra.Command{
		Use:   "sessctl <command>",
		Short: "Inspect and repair the session files of coding agents",
		Long: `sessctl inspects and repairs the session files of coding agents: pi,
oh-my-pi, xcsh, Claude Code, OpenCode, OpenClaw and Agent Core.

It reads files as a stream, never changes a file unless a writing command
is asked to, and prints data on stdout and diagnostics on stderr.`,
		SilenceErrors:     true,
		SilenceUsage:      true,
		DisableAutoGenTag: true,
		Version:           Version,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Name() == cobra.ShellCompRequestCmd || cmd.Name() == cobra.ShellCompNoDescRequestCmd {
				return nil
			}
			switch iostreams.ColorMode(colorMode) {
			case iostreams.ColorAuto, iostreams.ColorAlways, iostreams.ColorNever:
			default:
				return cmdutil.FlagErrorf("invalid --color %q: use auto, always or never", colorMode)
			}
			v, err := loadConfig(f.Getenv, configPath, noConfig)
			if err != nil {
				return err
			}
			if err := v.BindPFlags(cmd.Flags()); err != nil {
				return err
			}
			f.Config = v
			if !cmd.Flags().Changed("color") && v.IsSet("color") {
				colorMode = v.GetString("color")
			}
			f.IO.SetColorMode(iostreams.ColorMode(colorMode))
			f.IO.SetQuiet(quiet || v.GetBool("quiet"))
			return nil
		},
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &cmdutil.FlagError{Err: render.SafeError(err)} // cobra quotes the argument raw
	})
	pf := root.PersistentFlags()
	pf.BoolVar(&f.JSON, "json", false, "Print machine-readable JSON on stdout")
	pf.StringVar(&colorMode, "color", "auto", "Colour output: auto, always or never (auto honours NO_COLOR)")
	pf.StringVar(&configPath, "config", "", "Config file (default $XDG_CONFIG_HOME/sessctl/config.yaml)")
	pf.BoolVar(&noConfig, "no-config", false, "Do not read any config file")
	pf.BoolVarP(&quiet, "quiet", "q", false, "Print only data and errors, no progress or warnings")
	root.SetVersionTemplate("sessctl {{.Version}}\n")

	root.AddGroup(
		&cobra.Group{ID: "read", Title: "Reading sessions:"},
		&cobra.Group{ID: "write", Title: "Checking and changing sessions:"},
	)
	for _, add := range commands {
		c := add(f)
		if c.GroupID == "" {
			c.GroupID = "read"
		}
		root.AddCommand(c)
	}
	root.AddCommand(newExitCodesTopic())
	return root
}

// commands is the list of registered command constructors. Each command
// registers itself here from its own file in this package (one line), so
// that a command that is not ready is simply not listed.
var commands []func(*cmdutil.Factory) *cobra.Command

// register adds a command constructor.
func register(c func(*cmdutil.Factory) *cobra.Command) { commands = append(commands, c) }

// loadConfig reads the config file and SESSCTL_* environment variables.
// Lookup order: --config, $SESSCTL_CONFIG, $XDG_CONFIG_HOME/sessctl/config.yaml,
// $HOME/.config/sessctl/config.yaml. A missing default file is not an error;
// a missing explicit file is.
func loadConfig(getenv func(string) string, explicit string, none bool) (*viper.Viper, error) {
	v := viper.New()
	v.SetEnvPrefix("sessctl")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	v.AutomaticEnv()
	if none {
		return v, nil
	}
	path := explicit
	if path == "" {
		path = getenv("SESSCTL_CONFIG")
	}
	mustExist := path != ""
	if path == "" {
		if x := getenv("XDG_CONFIG_HOME"); x != "" {
			path = filepath.Join(x, "sessctl", "config.yaml")
		} else if h := fsx.Home(getenv); h != "" {
			path = filepath.Join(h, ".config", "sessctl", "config.yaml")
		}
	}
	if path == "" {
		return v, nil
	}
	if _, err := os.Stat(path); err != nil {
		if mustExist {
			return nil, fmt.Errorf("cannot read config file: %w", err)
		}
		return v, nil
	}
	v.SetConfigFile(path)
	if err := v.ReadInConfig(); err != nil {
		return nil, fmt.Errorf("config file %s: %w", path, err)
	}
	return v, nil
}

// lookupSessions finds the sessions whose id starts with id across all
// roots (environment, config `roots:`), through the list cache, for the
// format registry.
func lookupSessions(f *cmdutil.Factory, id string) ([]sessfmt.Ref, error) {
	opts, err := f.DiscoverOptions(nil, false)
	if err != nil {
		return nil, err
	}
	return discover.IDLookup(opts)(id)
}

func newExitCodesTopic() *cobra.Command {
	return &cobra.Command{
		Use:   "exit-codes",
		Short: "Exit codes of sessctl commands",
		Long: `sessctl exits with one of these codes:

  0  success: the command did what was asked and found nothing wrong
  1  error: a file could not be read or written, or the input is unusable
     (for example a session file with no valid header)
  2  usage error: unknown flag, bad argument, ambiguous session prefix
  3  problems found or action needed: check found problems, migrate --check
     found files to migrate, a dry run would change something

Any other code must be treated as a failure.`,
		Run: func(cmd *cobra.Command, args []string) { _ = cmd.Help() },
	}
}
