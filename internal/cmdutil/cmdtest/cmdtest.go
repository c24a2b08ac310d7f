// Package cmdtest holds what the commands' unit tests share: a factory on
// fake IO with a private environment and the format registry, a runner
// that captures stdout and stderr, and the repository's testdata path.
package cmdtest

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
	"github.com/spf13/cobra"
)

// Testdata is the absolute path of elem below the repository's testdata.
func Testdata(t testing.TB, elem ...string) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cmdtest: cannot find the repository")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	return filepath.Join(append([]string{root, "testdata"}, elem...)...)
}

// Factory is a factory on fake IO whose environment is env plus an empty
// HOME and a private cache (so discovery finds only what env names), with
// the registry of every format.
func Factory(t testing.TB, env map[string]string) *cmdutil.Factory {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	e := map[string]string{"HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir()}
	for k, v := range env {
		e[k] = v
	}
	getenv := func(k string) string { return e[k] }
	return &cmdutil.Factory{IO: ios, Getenv: getenv, Registry: formats.New(getenv)}
}

// Run builds a command with newCmd on f and runs it with argv on fresh
// fake IO (stdout a terminal when tty); "--json" sets the global flag. It
// returns stdout, stderr and the command's error.
func Run(t testing.TB, f *cmdutil.Factory, newCmd func(*cmdutil.Factory) *cobra.Command, tty bool, argv ...string) (string, string, error) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	ios.SetStdoutTTY(tty)
	f.IO = ios
	var args []string
	for _, a := range argv {
		if a == "--json" {
			f.JSON = true
			continue
		}
		args = append(args, a)
	}
	cmd := newCmd(f)
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}
