package search

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/sessctl/sessctl/internal/discover"
)

// TestLazyCacheSameAsEager: search -l prints the same rows whether the list
// cache was read before a session was looked at (its id, title, last
// activity and sidechain verdict taken at once) or only once the session
// had a hit (Target.Known, the hidden sessions left out afterwards), with a
// warm cache and without one, for every kind of -l output; an orphaned
// Claude Code subagent transcript is left out unless --all either way, and
// stderr and the exit code agree too.
func TestLazyCacheSameAsEager(t *testing.T) {
	home := t.TempDir()
	if err := os.CopyFS(home, os.DirFS(cmdtest.Testdata(t, "home"))); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(home, ".claude", "projects", "-w-proj", "d0000000-0000-4000-8000-000000000009", "subagents", "agent-s1.jsonl")
	if err := os.MkdirAll(filepath.Dir(sub), 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"parentUuid":null,"isSidechain":true,"cwd":"/w/proj","sessionId":"d0000000-0000-4000-8000-000000000009","agentId":"s1","type":"user","message":{"role":"user","content":"the subagent"},"uuid":"51000000-0000-4000-8000-000000000001","timestamp":"2026-01-01T00:00:01.000Z"}` + "\n"
	if err := os.WriteFile(sub, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		// A hidden session that cannot be read is left out both ways too,
		// its error with it (the mode does not stop root).
		bad := filepath.Join(filepath.Dir(sub), "agent-s2.jsonl")
		if err := os.WriteFile(bad, []byte(line), 0o000); err != nil {
			t.Fatal(err)
		}
	}
	cacheDir := filepath.Join(t.TempDir(), "cache")
	env := map[string]string{"HOME": home, "XDG_CACHE_HOME": cacheDir}
	run := func(ready func(chan struct{}) bool, args ...string) string {
		t.Helper()
		defer func(r func(chan struct{}) bool) { cacheReady = r }(cacheReady)
		cacheReady = ready
		f, st := cmdtest.Factory(t, env)
		var argv []string
		for _, a := range args {
			if a == "--json" {
				f.JSON = true // the global flag
				continue
			}
			argv = append(argv, a)
		}
		out, errOut, err := cmdtest.Exec(NewCmd(f, nil), st, argv...)
		if err != nil && cmdutil.ExitCode(err) != cmdutil.ExitProblems {
			t.Fatalf("%q: %v", args, err)
		}
		return fmt.Sprintf("%sstderr:\n%sexit %d\n", out, errOut, cmdutil.ExitCode(err))
	}
	eager := func(c chan struct{}) bool { <-c; return true }
	lazy := func(chan struct{}) bool { return false }
	for _, warm := range []bool{false, true} {
		for _, args := range [][]string{
			{"-l", "-i", "the"}, {"-l", "--all", "-i", "the"}, {"-l", "--titles", "-i", "the"},
			{"-l", "--titles", "--all", "-i", "the"}, {"-l", "--json", "-i", "the"},
		} {
			var outs [2]string
			for i, ready := range []func(chan struct{}) bool{eager, lazy} {
				os.RemoveAll(cacheDir)
				if warm {
					f, _ := cmdtest.Factory(t, env)
					sopts, err := f.DiscoverOptions(nil, false)
					if err != nil {
						t.Fatal(err)
					}
					discover.ScanAll(sopts)
					if _, err := os.Stat(sopts.Cache); err != nil {
						t.Fatal(err)
					}
				}
				outs[i] = run(ready, args...)
			}
			if outs[0] != outs[1] {
				t.Fatalf("warm %v %q:\ncache read first:\n%s\ncache read at the first hit:\n%s", warm, args, outs[0], outs[1])
			}
			if strings.Count(outs[0], "\n") < 4 {
				t.Fatalf("warm %v %q: %d rows:\n%s", warm, args, strings.Count(outs[0], "\n"), outs[0])
			}
			all := strings.Contains(strings.Join(args, " "), "--all")
			if strings.Contains(outs[0], "agent-s1") != all {
				t.Fatalf("warm %v %q: the subagent transcript shown: %v:\n%s", warm, args, !all, outs[0])
			}
		}
	}
}
