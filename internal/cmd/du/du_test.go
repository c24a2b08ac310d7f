package du

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/sessctl/sessctl/internal/du"
)

// home makes a Claude Code home with one session, its tool results and a
// sessctl backup copy.
func home(t *testing.T) string {
	t.Helper()
	h := t.TempDir()
	p := filepath.Join(h, "projects", "-w-p", "dddddddd-0000-4000-8000-000000000004.jsonl")
	line := claudeLine
	for path, data := range map[string]string{
		p:                                   line,
		p + ".sessctl-20260101T000000Z.bak": "0123456789",
		filepath.Join(h, "projects", "-w-p", "dddddddd-0000-4000-8000-000000000004", "tool-results", "t.txt"): strings.Repeat("r", 2048),
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

const claudeLine = `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"dddddddd-0000-4000-8000-000000000004","cwd":"/w/p","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi"}}` + "\n"

func run(t *testing.T, tty, asJSON bool, argv ...string) (string, error) {
	t.Helper()
	f, s := cmdtest.Factory(t, map[string]string{"CLAUDE_CONFIG_DIR": home(t)})
	f.JSON = asJSON
	f.IO.SetStdoutTTY(tty)
	out, _, err := cmdtest.Exec(NewCmd(f, nil), s, argv...)
	return out, err
}

func TestJSONRows(t *testing.T) {
	out, err := run(t, false, true, "--by", "session")
	if err != nil {
		t.Fatal(err)
	}
	var r du.Row
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &r); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if r.Agent != "claude" || r.Kinds["tool-results"] != 2048 || r.Kinds["sessctl-backup"] != 10 || r.Files != 3 || r.Project != "/w/p" {
		t.Errorf("row %+v", r)
	}
}

func TestSizesHumanOnTerminalBytesWhenPiped(t *testing.T) {
	piped, err := run(t, false, false)
	if err != nil {
		t.Fatal(err)
	}
	// the transcript line, the 10-byte backup and 2048 bytes of tool results
	total := strconv.Itoa(len(claudeLine) + 10 + 2048)
	if !regexp.MustCompile(`(?m)^` + total + `\t3\t1\t\ttotal$`).MatchString(piped) {
		t.Errorf("piped: no total line of %s bytes in %q", total, piped)
	}
	if strings.Contains(piped, "KiB") {
		t.Errorf("piped output has human sizes: %q", piped)
	}
	tty, err := run(t, true, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tty, "KiB") {
		t.Errorf("terminal output lacks human sizes: %q", tty)
	}
	b, err := run(t, true, false, "--bytes")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b, "KiB") {
		t.Errorf("--bytes: %q", b)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, argv := range [][]string{{"--by", "day"}, {"--top", "-2"}, {"--agent", "nope"}, {"extra"}} {
		_, err := run(t, false, false, argv...)
		if cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v (exit %d), want a usage error", argv, err, cmdutil.ExitCode(err))
		}
	}
}
