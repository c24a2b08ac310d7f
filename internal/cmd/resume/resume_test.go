package resume

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
)

const piSession = `{"type":"session","version":3,"id":"0199aaaa-0000-7000-8000-000000000001","timestamp":"2026-01-01T00:00:00.000Z","cwd":%q}
{"type":"message","id":"a1000001","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1767225601000}}
`

func writePi(t *testing.T, cwd string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	b, _ := json.Marshal(cwd)
	if err := os.WriteFile(p, []byte(strings.Replace(piSession, "%q", string(b), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPrintsQuotedCommand(t *testing.T) {
	p := writePi(t, "/w/it's; rm -rf ~")
	f, s := cmdtest.Factory(t, nil)
	out, _, err := cmdtest.Exec(NewCmd(f, nil), s, p)
	if err != nil {
		t.Fatal(err)
	}
	want := `cd '/w/it'\''s; rm -rf ~' && pi --session ` + p + "\n"
	if out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestJSON(t *testing.T) {
	p := writePi(t, "/w/p")
	f, s := cmdtest.Factory(t, nil)
	f.JSON = true
	out, _, err := cmdtest.Exec(NewCmd(f, nil), s, p)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Agent, Dir, Command string
		Argv                []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Agent != "pi" || got.Dir != "/w/p" || strings.Join(got.Argv, " ") != "pi --session "+p || got.Command != "cd /w/p && pi --session "+p {
		t.Errorf("got %+v", got)
	}
}

func TestExecRunsArgvInDirWithoutShell(t *testing.T) {
	dir := t.TempDir()
	p := writePi(t, dir)
	f, s := cmdtest.Factory(t, nil)
	var gotDir string
	var gotArgv []string
	cmd := NewCmd(f, func(o *Options) error {
		o.ExecFunc = func(d string, argv []string) error { gotDir, gotArgv = d, argv; return nil }
		return Run(o)
	})
	out, _, err := cmdtest.Exec(cmd, s, "--exec", p)
	if err != nil {
		t.Fatal(err)
	}
	if out != "" || gotDir != dir || strings.Join(gotArgv, "|") != "pi|--session|"+p {
		t.Errorf("out %q dir %q argv %q", out, gotDir, gotArgv)
	}
	// a folder that is gone is refused before anything runs
	p2 := writePi(t, filepath.Join(dir, "gone"))
	f, s = cmdtest.Factory(t, nil)
	cmd = NewCmd(f, func(o *Options) error {
		o.ExecFunc = func(string, []string) error { t.Error("ran"); return nil }
		return Run(o)
	})
	if _, _, err := cmdtest.Exec(cmd, s, "--exec", p2); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("missing folder: %v", err)
	}
}

func TestUsageAndNone(t *testing.T) {
	f, s := cmdtest.Factory(t, nil)
	if _, _, err := cmdtest.Exec(NewCmd(f, nil), s); cmdutil.ExitCode(err) != 2 {
		t.Errorf("no argument: %v (exit %d)", err, cmdutil.ExitCode(err))
	}
	f, s = cmdtest.Factory(t, nil)
	f.JSON = true
	if _, _, err := cmdtest.Exec(NewCmd(f, nil), s, "--exec", "x"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("--exec --json: %v", err)
	}
	// Agent Core has no command
	ac := filepath.Join(cmdtest.Testdata(t), "agentcore")
	var file string
	filepath.WalkDir(ac, func(p string, d os.DirEntry, err error) error {
		if err == nil && file == "" && strings.HasSuffix(p, ".jsonl") {
			file = p
		}
		return nil
	})
	if file == "" {
		t.Skip("no agent core sample")
	}
	f, s = cmdtest.Factory(t, nil)
	_, _, err := cmdtest.Exec(NewCmd(f, nil), s, file)
	if err == nil || !strings.Contains(err.Error(), "no command resumes") {
		t.Errorf("agent core: %v", err)
	}
	var ue *cmdutil.UsageError
	if errors.As(err, &ue) {
		t.Errorf("agent core: a usage error: %v", err)
	}
}
