// Package cmdtest runs commands on fake IO for the command layer's unit
// tests, as gh does: a Factory on iostreams.Test() with a fixed environment
// and the format registry, and a helper that executes a command's argv.
package cmdtest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
	"github.com/spf13/cobra"
)

// Streams are the buffers behind a test Factory's IO.
type Streams struct {
	Out, Err *bytes.Buffer
}

// Factory returns a factory on fake IO (not a terminal, no colour) whose
// environment is env plus a private HOME and XDG_CACHE_HOME (so discovery
// finds only what env names), with the format registry.
func Factory(t testing.TB, env map[string]string) (*cmdutil.Factory, Streams) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	e := map[string]string{"HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir()}
	for k, v := range env {
		e[k] = v
	}
	getenv := func(k string) string { return e[k] }
	return &cmdutil.Factory{IO: ios, Getenv: getenv, Registry: formats.New(getenv)}, Streams{out, errOut}
}

// Exec runs cmd with argv the way the root command would (errors are
// returned, not printed) and returns what it wrote on stdout and stderr.
func Exec(cmd *cobra.Command, s Streams, argv ...string) (stdout, stderr string, err error) {
	cmd.SetArgs(argv)
	cmd.SetOut(s.Out)
	cmd.SetErr(s.Err)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err = cmd.Execute()
	return s.Out.String(), s.Err.String(), err
}

// Testdata is the path of the repository's testdata/<elem...> from a
// package three levels below the root (internal/cmd/<name>).
func Testdata(t testing.TB, elem ...string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(append([]string{"..", "..", "..", "testdata"}, elem...)...))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Copy copies testdata/<elem...> to dir/name and returns the new path.
func Copy(t testing.TB, dir, name string, elem ...string) string {
	t.Helper()
	b, err := os.ReadFile(Testdata(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Run builds a command with newCmd on a fresh Factory (no environment) and
// executes argv: stdout is a terminal when tty, and "--json" in argv sets
// the root's global flag. It returns stdout, stderr and the error.
func Run(t testing.TB, newCmd func(*cmdutil.Factory) *cobra.Command, tty bool, argv ...string) (stdout, stderr string, err error) {
	t.Helper()
	f, s := Factory(t, nil)
	f.IO.SetStdoutTTY(tty)
	var args []string
	for _, a := range argv {
		if a == "--json" {
			f.JSON = true
			continue
		}
		args = append(args, a)
	}
	return Exec(newCmd(f), s, args...)
}
