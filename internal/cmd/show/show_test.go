package show_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/cmd/show"
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

// run runs show with argv on fake IO, stdout a terminal when tty.
func run(t *testing.T, tty bool, argv ...string) (string, string, error) {
	return cmdtest.Run(t, func(f *cmdutil.Factory) *cobra.Command { return show.NewCmd(f, nil) }, tty, argv...)
}

func TestNewCmdFlags(t *testing.T) {
	tests := []struct {
		name    string
		argv    []string
		json    bool
		want    show.Options
		wantErr string
	}{
		{name: "defaults", argv: []string{"s.jsonl"},
			want: show.Options{Session: "s.jsonl", Dialect: "auto", LeafMode: "last-prompt", ResolveBlobs: true}},
		{name: "all flags", argv: []string{"--leaf", "ab12", "--full", "--raw", "--dialect", "omp", "--extract-images", "d", "--leaf-mode", "picker", "--across-compactions", "x"},
			want: show.Options{Session: "x", Leaf: "ab12", Full: true, Raw: true, Dialect: "omp", ExtractImages: "d", ResolveBlobs: true, LeafMode: "picker", AcrossCompactions: true}},
		{name: "json", argv: []string{"x"}, json: true,
			want: show.Options{Session: "x", JSON: true, Dialect: "auto", LeafMode: "last-prompt", ResolveBlobs: true}},
		{name: "raw and json", argv: []string{"--raw", "x"}, json: true, wantErr: "--raw and --json cannot be used together"},
		{name: "bad dialect", argv: []string{"--dialect", "vim", "x"}, wantErr: "vim"},
		{name: "bad leaf mode", argv: []string{"--leaf-mode", "newest", "x"}, wantErr: `--leaf-mode: unknown leaf mode "newest"`},
		{name: "no blob resolving", argv: []string{"--resolve-blobs=false", "x"}, wantErr: "--resolve-blobs=false is not supported"},
		{name: "no argument", argv: []string{}, wantErr: "accepts 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := factory(t)
			f.JSON = tt.json
			var got *show.Options
			cmd := show.NewCmd(f, func(o *show.Options) error { got = o; return nil })
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
			require.NotNil(t, got)
			got.IO, got.Factory = nil, nil
			assert.Equal(t, tt.want, *got)
		})
	}
}

// The header's title is list's (issue 11.14: it said "(untitled)" where
// list shows the first message) and the model is written as provider/id,
// not as raw JSON (issue 11.15).
func TestRunPiHeader(t *testing.T) {
	out, errOut, err := run(t, false, testdata(t, "pi", "parity", "sessions", "021-compaction-simple.jsonl"))
	require.NoError(t, err)
	assert.Empty(t, errOut)
	lines := strings.Split(out, "\n")
	assert.Equal(t, "pi session 01a10f24-5baa-77e2-a552-667b2253ee76 · Test scanner context stream list compaction edit edit memory summary please would!", lines[0])
	assert.Contains(t, out, "\nmodel amazon-bedrock/us.anthropic.claude-opus-4-1\n")
	assert.NotContains(t, out, `{"provider"`)
	assert.True(t, strings.HasSuffix(out, "7 messages in context\n"), out)
}

// --json streams one line off a terminal, indented on one; both are the
// same document.
func TestRunPiJSON(t *testing.T) {
	p := testdata(t, "pi", "parity", "sessions", "021-compaction-simple.jsonl")
	flat, _, err := run(t, false, "--json", p)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(flat, "\n"))
	pretty, _, err := run(t, true, "--json", p)
	require.NoError(t, err)
	assert.Greater(t, strings.Count(pretty, "\n"), 10)
	var a, b map[string]any
	require.NoError(t, json.Unmarshal([]byte(flat), &a))
	require.NoError(t, json.Unmarshal([]byte(pretty), &b))
	assert.Equal(t, a, b)
	assert.Equal(t, p, a["path"])
	assert.Equal(t, "3b74b681", a["leafId"])
}

func TestRunRawAndLeaf(t *testing.T) {
	p := testdata(t, "pi", "parity", "sessions", "001-linear-minimal.jsonl")
	out, _, err := run(t, false, "--raw", "--leaf", "18f0", p)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(out, "\n"))
	assert.True(t, strings.HasPrefix(out, `{"type":"message","id":"18f0411c","parentId":null,`), out)

	_, _, err = run(t, false, "--leaf", "zzzz", p)
	require.Error(t, err)
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	assert.Contains(t, err.Error(), "--leaf: ")
}

// A healthy compacted Claude Code transcript: stopping at the compact
// boundary is information, not a warning (issue 11.15).
func TestRunClaudeCompactBoundaryIsInformation(t *testing.T) {
	out, errOut, err := run(t, false, testdata(t, "claude", "shapes", "compact.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, out, "[compaction summary]")
	assert.Contains(t, errOut, "stopped at compact boundary")
	assert.NotContains(t, errOut, "warning")
}

// Claude's leaf modes: the disagreement is said once, in show's words, and
// not again as a problem.
func TestRunClaudeLeafModes(t *testing.T) {
	out, errOut, err := run(t, false, testdata(t, "claude", "shapes", "api-error-late.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, out, "It asks for tests with every change.")
	assert.Equal(t, 1, strings.Count(errOut, "leaf modes disagree"), errOut)
	assert.Contains(t, errOut, "(showing last-prompt; --leaf-mode picks another)")
}

// An OpenClaw database session names its db#id reference, never the
// temporary file it is read from.
func TestRunOpenClawDB(t *testing.T) {
	ref := testdata(t, "openclaw", "sqlite-state", "agents", "ops", "agent", "openclaw-agent.sqlite") + "#c1"
	out, errOut, err := run(t, false, "--json", ref)
	require.NoError(t, err, errOut)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, ref, doc["path"])
	assert.Equal(t, "c1", doc["sessionId"])
	assert.NotContains(t, out+errOut, "sessctl-openclaw-")

	out, _, err = run(t, false, ref)
	require.NoError(t, err)
	assert.Contains(t, out, "pi session c1 · Ops")
}

func TestRunOpenCode(t *testing.T) {
	db := testdata(t, "opencode", "real", "opencode.db")
	out, _, err := run(t, false, db+"#ses_7e5f3a9b1c01")
	require.NoError(t, err)
	assert.Contains(t, out, "Please fix the parser")

	_, _, err = run(t, false, "--leaf", "x", db+"#ses_7e5f3a9b1c01")
	require.Error(t, err)
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	assert.Contains(t, err.Error(), "no leaf to choose")

	_, _, err = run(t, false, db)
	require.Error(t, err)
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	assert.Contains(t, err.Error(), "names a whole OpenCode store")
}

func TestRunExtractImagesNeedsPi(t *testing.T) {
	_, _, err := run(t, false, "--extract-images", t.TempDir(), testdata(t, "claude", "shapes", "compact.jsonl"))
	require.Error(t, err)
	assert.Equal(t, cmdutil.ExitUsage, cmdutil.ExitCode(err))
	assert.Contains(t, err.Error(), "not claude")
}

func TestRunNotASession(t *testing.T) {
	_, _, err := run(t, false, filepath.Join(t.TempDir(), "missing.jsonl"))
	require.Error(t, err)
	assert.True(t, errors.Is(err, fs.ErrNotExist), err)
	assert.Equal(t, cmdutil.ExitError, cmdutil.ExitCode(err))
}

// A final explicit null last-prompt: Claude Code resumes an empty
// conversation, and show says so instead of failing.
func TestRunClaudeEmptyResume(t *testing.T) {
	p := testdata(t, "claude", "parity", "cases", "lp-explicit-null-end", "1b9cb902-0000-4000-8000-00001b9cb902.jsonl")
	out, errOut, err := run(t, false, p)
	require.NoError(t, err)
	assert.Contains(t, out, "no leaf: Claude Code resumes an empty conversation (last-prompt)")
	assert.NotContains(t, out, "──")
	assert.Contains(t, errOut, "[empty-resume]")

	js, _, err := run(t, false, "--json", p)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	assert.Nil(t, doc["leafUuid"])
	assert.Empty(t, doc["messages"])

	out, _, err = run(t, false, "--leaf-mode", "file-order", p)
	require.NoError(t, err)
	assert.Contains(t, out, "question 1")
}
