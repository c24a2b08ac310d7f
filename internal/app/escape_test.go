package app

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/stretchr/testify/require"
)

func testFactory(tty bool) (*cmdutil.Factory, *bytes.Buffer, *bytes.Buffer) {
	ios, _, out, errOut := iostreams.Test()
	ios.SetStdoutTTY(tty)
	ios.SetStderrTTY(tty)
	home := os.TempDir()
	f := &cmdutil.Factory{IO: ios, Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}}
	return f, out, errOut
}

// terminalActs lists characters in s a terminal acts on (C0 but newline
// and tab, DEL, C1, bidi overrides and isolates).
func terminalActs(s string) []string {
	var found []string
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			found = append(found, string(r))
		}
	}
	return found
}

// TestFlagErrorsEscaped (issue 11.9): an unknown flag, an unknown command
// and a bad flag value print their argument escaped, like every other error.
func TestFlagErrorsEscaped(t *testing.T) {
	osc := "\x1b]52;c;ZXZpbA==\x07"
	for _, args := range [][]string{
		{"show", "--abc" + osc},
		{"--abc" + osc, "list"},
		{"show", "-Z" + osc},
		{"list", "--color=" + osc},
		{"x" + osc},
	} {
		f, out, errOut := testFactory(true)
		code := Run(f, args)
		require.NotEqual(t, 0, code, "%q", args)
		require.Empty(t, terminalActs(errOut.String()), "%q: stderr carries raw control characters: %q", args, errOut.String())
		require.Empty(t, terminalActs(out.String()), "%q: stdout carries raw control characters: %q", args, out.String())
		require.Contains(t, errOut.String(), `\x1b`, "%q: the argument is not shown escaped: %q", args, errOut.String())
	}
	f, _, errOut := testFactory(false)
	require.Equal(t, cmdutil.ExitUsage, Run(f, []string{"show", "--abc" + osc}))
	require.Contains(t, errOut.String(), `unknown flag: --abc\x1b]52;c;ZXZpbA`)
}

// TestJSONOnTerminalEscapesPaths (issue 11.8): --json on a terminal writes
// the bidi override of a file name as \u202e; piped, the name is as is.
func TestJSONOnTerminalEscapesPaths(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a\u202elnosj.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"type":"session","version":3,"id":"x\u009b1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/tmp/\u202e"}`+"\n"+
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi \u009b31m \u2066 there","timestamp":1}}`+"\n"), 0o600))
	for _, cmd := range [][]string{{"check", "--json", p}, {"show", "--json", p}, {"tree", "--json", p}, {"compact-view", "--json", p},
		{"repair", "--dry-run", "--json", "--close-tool-calls", p}, {"migrate", "--check", "--json", p}} {
		f, out, _ := testFactory(true)
		Run(f, cmd)
		require.NotEmpty(t, out.String(), "%v wrote nothing", cmd)
		require.Empty(t, terminalActs(out.String()), "%v on a terminal: raw %q in %s", cmd, terminalActs(out.String()), out.String())
		require.Contains(t, out.String(), `\u202e`, "%v", cmd)
		f, out, _ = testFactory(false)
		Run(f, cmd)
		require.Contains(t, out.String(), "\u202e", "%v piped: the name was changed", cmd)
	}
}

// TestListJSONOnTerminalEscapes (issue 11.8): list --json on a terminal
// escapes what a session's header carries (its cwd) and its file name.
func TestListJSONOnTerminalEscapes(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".pi", "agent", "sessions", "--tmp--")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	p := filepath.Join(dir, "2026-01-01T00-00-00-000Z_abc\u202e.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"type":"session","version":3,"id":"abc","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/tmp/\u202e\u009b"}`+"\n"+
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi \u2066","timestamp":1}}`+"\n"), 0o600))
	run := func(tty bool) string {
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tty)
		f := &cmdutil.Factory{IO: ios, Getenv: func(k string) string {
			switch k {
			case "HOME":
				return home
			case "XDG_CACHE_HOME":
				return filepath.Join(home, ".cache")
			}
			return ""
		}}
		Run(f, []string{"list", "--json", "--no-config"})
		return out.String()
	}
	term := run(true)
	require.Contains(t, term, `\u202e`, "list found nothing: %s", term)
	require.Empty(t, terminalActs(term), "raw %q in %s", terminalActs(term), term)
	require.Contains(t, run(false), "\u202e")
}

// TestExportAndSearchOnTerminalEscape (issue 11.8): export to stdout and
// search --json, on a terminal, write no raw C1 or bidi characters.
func TestExportAndSearchOnTerminalEscape(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s\u202e.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"type":"session","version":3,"id":"x1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/tmp/\u202e"}`+"\n"+
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"needle \u009b31m \u2066 \u001b[2J there","timestamp":1}}`+"\n"), 0o600))
	for _, cmd := range [][]string{{"export", "--format", "json", p}, {"export", "--format", "pi", p},
		{"export", "--format", "markdown", p}, {"search", "--json", "needle", p}} {
		f, out, _ := testFactory(true)
		Run(f, cmd)
		require.NotEmpty(t, out.String(), "%v wrote nothing", cmd)
		require.Empty(t, terminalActs(out.String()), "%v on a terminal: raw %q in %s", cmd, terminalActs(out.String()), out.String())
	}
}
