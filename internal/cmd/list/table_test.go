package list_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/app"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 11 item 15 (list): on a 100-column terminal TITLE gets the room and
// a long PROJECT is cut from the left; an empty cell holds no bare colour
// codes.
func TestTableGivesTitleTheRoom(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".pi", "agent", "sessions", "--x--")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	deep := "/srv/work/customers/acme/projects/platform/services/billing-gateway"
	title := "Refactor the invoice reconciliation job so it streams the ledger"
	body := `{"type":"session","version":3,"id":"019a0000-0000-7000-8000-0000000000aa","timestamp":"2026-01-01T00:00:00.000Z","cwd":"` + deep + `"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"` + title + `","timestamp":1}}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "2026-01-01T00-00-00-000Z_019a0000-0000-7000-8000-0000000000aa.jsonl"), []byte(body), 0o644))
	// a session with no cwd: an empty PROJECT cell
	noCwd := `{"type":"session","version":3,"id":"7c1d0000-0000-7000-8000-0000000000bb","timestamp":"2026-01-01T00:00:00.000Z"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "2026-01-01T00-00-00-000Z_7c1d0000-0000-7000-8000-0000000000bb.jsonl"), []byte(noCwd), 0o644))

	ios, _, out, errOut := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetWidth(100)
	e := map[string]string{"HOME": home, "XDG_CACHE_HOME": t.TempDir(), "CLICOLOR_FORCE": "1"}
	f := &cmdutil.Factory{IO: ios, Getenv: func(k string) string { return e[k] }}
	code := app.Run(f, []string{"list", "--no-config", "--color", "always"})
	require.Equal(t, 0, code, errOut.String())
	var line string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "Refactor") {
			line = l
		}
	}
	require.NotEmpty(t, line, out.String())
	assert.Contains(t, line, "Refactor the invoice", "the title is not cut to 12 characters")
	assert.Contains(t, line, "…", "something is cut to fit 100 columns")
	assert.Contains(t, line, "gateway", "the project keeps its end (cut from the left)")
	assert.NotContains(t, line, "/srv/work", "the project's start is what goes")
	assert.NotContains(t, out.String(), "\x1b[2m\x1b[22m", "no colour codes around an empty cell")
	assert.NotContains(t, out.String(), "\x1b[2m\x1b[0m", "no colour codes around an empty cell")
}

// Issue 11 item 13: an orphaned Claude Code subagent transcript is listed
// without --all, its title marked.
func TestOrphanedSubagentShown(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".claude", "projects", "-p", "11111111-2222-4333-8444-555555555555", "subagents")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	side := `{"type":"user","uuid":"u1","parentUuid":null,"isSidechain":true,"sessionId":"s","cwd":"/p","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"look around"}}` + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "agent-a1.jsonl"), []byte(side), 0o644))
	ios, _, out, errOut := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetWidth(160)
	e := map[string]string{"HOME": home, "XDG_CACHE_HOME": t.TempDir()}
	f := &cmdutil.Factory{IO: ios, Getenv: func(k string) string { return e[k] }}
	require.Equal(t, 0, app.Run(f, []string{"list", "--no-config", "--agent", "claude"}), errOut.String())
	assert.Contains(t, out.String(), "(orphaned subagent) look around", "titled by its first prompt")
	assert.Contains(t, out.String(), "agent-a1")
}
