package tree_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/cmd/tree"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testdata(t *testing.T, elem ...string) string { return cmdtest.Testdata(t, elem...) }

func factory(t *testing.T) *cmdutil.Factory {
	f, _ := cmdtest.Factory(t, nil)
	return f
}

// run runs tree with argv on fake IO, stdout a terminal when tty.
func run(t *testing.T, tty bool, argv ...string) (string, string, error) {
	return cmdtest.Run(t, func(f *cmdutil.Factory) *cobra.Command { return tree.NewCmd(f, nil) }, tty, argv...)
}

func TestNewCmdFlags(t *testing.T) {
	tests := []struct {
		name    string
		argv    []string
		want    tree.Options
		wantErr string
	}{
		{name: "defaults", argv: []string{"s"}, want: tree.Options{Session: "s", Dialect: "auto", LeafMode: "last-prompt"}},
		{name: "all flags", argv: []string{"--leaf", "a1", "--full", "--dialect", "xcsh", "--leaf-mode", "resume", "s"},
			want: tree.Options{Session: "s", Leaf: "a1", Full: true, Dialect: "xcsh", LeafMode: "resume"}},
		{name: "bad dialect", argv: []string{"--dialect", "emacs", "s"}, wantErr: "emacs"},
		{name: "bad leaf mode", argv: []string{"--leaf-mode", "x", "s"}, wantErr: "--leaf-mode"},
		{name: "two sessions", argv: []string{"a", "b"}, wantErr: "accepts 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *tree.Options
			cmd := tree.NewCmd(factory(t), func(o *tree.Options) error { got = o; return nil })
			cmd.SetArgs(tt.argv)
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			err := cmd.Execute()
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
				return
			}
			require.NoError(t, err)
			got.IO, got.Factory = nil, nil
			assert.Equal(t, tt.want, *got)
		})
	}
}

func TestRunPi(t *testing.T) {
	p := testdata(t, "pi", "parity", "sessions", "012-branch-simple.jsonl")
	out, errOut, err := run(t, false, p)
	require.NoError(t, err)
	assert.Empty(t, errOut)
	// the title is list's (the first message), not "(untitled)"
	assert.True(t, strings.HasPrefix(out, "pi session 01a08c9d-8d6f-7603-8886-432d970845d4 · Column then parser how why disk fails write build import... · 6 entries\n"), out)
	assert.Contains(t, out, "● 646f7d03 assistant  Should summary find a?  2026-09-10T19:10:24Z ◀ active leaf")

	out, _, err = run(t, false, "--leaf", "880a", p)
	require.NoError(t, err)
	assert.Contains(t, out, "● 880adb22 assistant")
	assert.Contains(t, out, "◀ active leaf")

	_, _, err = run(t, false, "--leaf", "zzzz", p)
	require.Error(t, err)
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
}

// --json is the same document streamed (off a terminal) and indented (on
// one), for pi and for Claude Code (built from its tree model on a
// terminal).
func TestRunJSONFlatAndPretty(t *testing.T) {
	for _, p := range []string{
		testdata(t, "pi", "parity", "sessions", "012-branch-simple.jsonl"),
		testdata(t, "claude", "shapes", "rewind.jsonl"),
		testdata(t, "agentcore", "branched.jsonl"),
	} {
		flat, _, err := run(t, false, "--json", p)
		require.NoError(t, err, p)
		assert.Equal(t, 1, strings.Count(flat, "\n"), p)
		pretty, _, err := run(t, true, "--json", p)
		require.NoError(t, err, p)
		assert.Greater(t, strings.Count(pretty, "\n"), 5, p)
		var a, b map[string]any
		require.NoError(t, json.Unmarshal([]byte(flat), &a), p)
		require.NoError(t, json.Unmarshal([]byte(pretty), &b), p)
		assert.Equal(t, a, b, p)
		assert.Equal(t, p, a["path"], p)
		assert.NotNil(t, a["leafId"], p)
	}
}

// The OpenCode tree marks the messages OpenCode sends to the model and
// the newest of them as the active leaf (issue 15.5).
func TestRunOpenCodeActiveLeaf(t *testing.T) {
	db := testdata(t, "opencode", "real", "opencode.db")
	out, _, err := run(t, false, db+"#ses_7e5f3a9b1c01")
	require.NoError(t, err)
	assert.Contains(t, out, "● msg_019b76da8008AbCdEfGhIjKlMn assistant  Tests added in parser_test.go.  2026-01-01T00:00:51Z ◀ active leaf")
	// hidden by the compaction (its retained tail starts at message 3)
	assert.Contains(t, out, "○ msg_019b76da8001AbCdEfGhIjKlMn user")
	assert.Contains(t, out, "● msg_019b76da8003AbCdEfGhIjKlMn user")
	assert.Equal(t, 1, strings.Count(out, "◀ active leaf"))

	js, _, err := run(t, false, "--json", db+"#ses_7e5f3a9b1c01")
	require.NoError(t, err)
	assert.Contains(t, js, `"leafId":"msg_019b76da8008AbCdEfGhIjKlMn"`)

	// a whole store has no active leaf
	out, _, err = run(t, false, db)
	require.NoError(t, err)
	assert.NotContains(t, out, "◀ active leaf")
}

func TestRunClaudeLeafModes(t *testing.T) {
	_, errOut, err := run(t, false, testdata(t, "claude", "shapes", "api-error-late.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, errOut, "(marking last-prompt; --leaf-mode picks another)")
	assert.Equal(t, 1, strings.Count(errOut, "leaf modes disagree"), errOut)
}

// An OpenClaw database session: the tree and its JSON name the db#id
// reference (never the temporary pi file), and its title is the row's.
func TestRunOpenClawDB(t *testing.T) {
	ref := testdata(t, "openclaw", "sqlite-state", "agents", "ops", "agent", "openclaw-agent.sqlite") + "#c2"
	out, errOut, err := run(t, false, ref)
	require.NoError(t, err, errOut)
	assert.True(t, strings.HasPrefix(out, "pi session c2 · Ops · 1 entries\n"), out)
	js, _, err := run(t, false, "--json", ref)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	assert.Equal(t, ref, doc["path"])
	assert.NotContains(t, js+errOut, "sessctl-openclaw-")
}
