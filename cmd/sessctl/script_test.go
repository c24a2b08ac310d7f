package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/sessctl/sessctl/internal/app"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sessctl": func() { os.Exit(app.Main()) },
	})
}

// TestScript runs the end-to-end scripts in testdata/script against the
// built binary. $TESTDATA is the repository's testdata folder and $SHARED
// the ../shared folder (scripts needing it start with `[!shared] skip`).
func TestScript(t *testing.T) {
	td, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	shared, _ := filepath.Abs("../../../shared")
	_, sharedErr := os.Stat(shared)
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("TESTDATA", td)
			env.Setenv("SHARED", shared)
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, "config"))
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, "cache"))
			env.Setenv("XDG_DATA_HOME", filepath.Join(env.WorkDir, "data"))
			env.Setenv("NO_COLOR", "")
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "shared":
				return sharedErr == nil, nil
			case "root":
				return os.Geteuid() == 0, nil
			}
			return false, errors.New("unknown condition " + cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// mtime DURATION PATH... sets the modification (and access)
			// time of each PATH to now plus DURATION (e.g. -2h).
			"mtime": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: mtime DURATION PATH...")
				}
				d, err := time.ParseDuration(args[0])
				ts.Check(err)
				t := time.Now().Add(d)
				for _, p := range args[1:] {
					ts.Check(os.Chtimes(ts.MkAbs(p), t, t))
				}
			},
			// exit N cmd args... runs cmd and checks its exit status is N;
			// stdout and stderr are kept for the following checks.
			"exit": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exit N command [args...]")
				}
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				err = ts.Exec(args[1], args[2:]...)
				got := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					got = ee.ExitCode()
				} else if err != nil {
					ts.Fatalf("%v", err)
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", args[1], got, want)
				}
			},
		},
	})
}
