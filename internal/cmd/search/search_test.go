package search_test

import (
	"errors"
	"strings"
	"testing"

	searchcmd "github.com/sessctl/sessctl/internal/cmd/search"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
)

func TestFlagsIntoOptions(t *testing.T) {
	f, st := cmdtest.Factory(t, nil)
	var got *searchcmd.Options
	cmd := searchcmd.NewCmd(f, func(o *searchcmd.Options) error { got = o; return nil })
	if _, _, err := cmdtest.Exec(cmd, st, "-i", "-E", "--in", "text,thinking", "--role", "user", "-l", "--all-branches=false", "--agent", "pi", "--since", "7d", "fo+", "a.jsonl", "b.jsonl"); err != nil {
		t.Fatal(err)
	}
	if got.Pattern != "fo+" || strings.Join(got.Args, ",") != "a.jsonl,b.jsonl" || !got.IgnoreCase || !got.Regexp || !got.FilesOnly ||
		got.AllBranches || strings.Join(got.In, ",") != "text,thinking" || got.Roles[0] != "user" || got.Agents[0] != "pi" || got.Since != "7d" {
		t.Fatalf("%+v", got)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, argv := range [][]string{
		{}, {"-E", "-F", "x"}, {"--in", "bogus", "x"}, {"-E", "("}, {"-E", "a*"}, {"--agent", "nope", "x"}, {"--since", "yesterday", "x"},
	} {
		f, st := cmdtest.Factory(t, nil)
		_, _, err := cmdtest.Exec(searchcmd.NewCmd(f, func(*searchcmd.Options) error { return nil }), st, argv...)
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%q: exit %d (%v), want 2", argv, cmdutil.ExitCode(err), err)
		}
	}
}

func TestRunHitsAndNoMatch(t *testing.T) {
	path := cmdtest.Testdata(t, "pi", "parity", "sessions", "058-everything.jsonl")
	f, st := cmdtest.Factory(t, nil)
	f.JSON = true // the global --json
	out, _, err := cmdtest.Exec(searchcmd.NewCmd(f, nil), st, "-i", "STREAM FIND", path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "\n"); n < 1 || !strings.Contains(out, `"kind":"text"`) {
		t.Fatalf("hits:\n%s", out)
	}
	f, st = cmdtest.Factory(t, nil)
	out, _, err = cmdtest.Exec(searchcmd.NewCmd(f, nil), st, "no such words at all", path)
	var pe *cmdutil.ProblemsError
	if !errors.As(err, &pe) || out != "" {
		t.Fatalf("no match: err %v, out %q", err, out)
	}
}
