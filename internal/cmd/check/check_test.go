package check_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/cmd/check"
	"github.com/sessctl/sessctl/internal/cmdutil"
	"github.com/sessctl/sessctl/internal/cmdutil/cmdtest"
	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testdata(t *testing.T, elem ...string) string { return cmdtest.Testdata(t, elem...) }

// factory returns a test factory whose environment is env.
func factory(t *testing.T, env map[string]string) *cmdutil.Factory {
	f, _ := cmdtest.Factory(t, env)
	return f
}

// run runs check with argv on f (on fresh fake IO) and returns stdout,
// stderr and the error.
func run(t *testing.T, f *cmdutil.Factory, argv ...string) (string, string, error) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	f.IO = ios
	return cmdtest.Exec(check.NewCmd(f, nil), cmdtest.Streams{Out: out, Err: errOut}, argv...)
}

func TestNewCmdFlags(t *testing.T) {
	tests := []struct {
		name    string
		argv    []string
		json    bool
		want    check.Options
		wantErr string
	}{
		{name: "files", argv: []string{"a.jsonl", "dir"}, want: check.Options{Args: []string{"a.jsonl", "dir"}, Format: "text"}},
		{name: "all strict github", argv: []string{"--all", "--strict", "--format", "github"}, want: check.Options{All: true, Strict: true, Format: "github"}},
		{name: "blob dir", argv: []string{"--blob-dir", "/b", "x.jsonl"}, want: check.Options{Args: []string{"x.jsonl"}, Format: "text", BlobDir: "/b"}},
		{name: "global json wins", argv: []string{"--format", "github", "x.jsonl"}, json: true, want: check.Options{Args: []string{"x.jsonl"}, Format: "json", JSON: true}},
		{name: "nothing named", argv: nil, wantErr: "name session files or directories, or use --all"},
		{name: "bad format", argv: []string{"--format", "xml", "x.jsonl"}, wantErr: `invalid --format "xml"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			f := &cmdutil.Factory{IO: ios, JSON: tt.json}
			var got *check.Options
			cmd := check.NewCmd(f, func(o *check.Options) error { got = o; return nil })
			cmd.SetArgs(tt.argv)
			cmd.SetOut(&strings.Builder{})
			cmd.SetErr(&strings.Builder{})
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			err := cmd.Execute()
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				var fe *cmdutil.FlagError
				assert.True(t, errors.As(err, &fe), "a usage error (exit 2)")
				assert.Nil(t, got, "the run is not reached")
				return
			}
			require.NoError(t, err)
			require.NotNil(t, got)
			assert.Equal(t, len(tt.want.Args), len(got.Args))
			if len(tt.want.Args) > 0 {
				assert.Equal(t, tt.want.Args, got.Args)
			}
			assert.Equal(t, tt.want.All, got.All)
			assert.Equal(t, tt.want.Strict, got.Strict)
			assert.Equal(t, tt.want.Format, got.Format)
			assert.Equal(t, tt.want.BlobDir, got.BlobDir)
			assert.Equal(t, tt.want.JSON, got.JSON)
		})
	}
}

// A healthy file: exit 0, "ok", and "1 file" in the singular.
func TestRunHealthy(t *testing.T) {
	f := factory(t, nil)
	path := testdata(t, "pi", "parity", "sessions", "001-linear-minimal.jsonl")
	out, _, err := run(t, f, path)
	require.NoError(t, err)
	assert.Contains(t, out, "(pi): ok")
	assert.Contains(t, out, "1 file checked: 0 with errors, 0 errors, 0 warnings, 0 info")
}

// Issue 11 item 15: "1 warning" and "1 error" in the singular, and a
// problem of the whole file prints no "line" without a number.
func TestTextSingularsAndFileLevelProblems(t *testing.T) {
	f := factory(t, nil)
	dir := t.TempDir()
	// No header at all: a file-level problem (missing-header) with no line.
	p := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(p, []byte(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"hi"}}`+"\n"), 0o644))
	out, _, err := run(t, f, p)
	require.Error(t, err)
	for _, l := range strings.Split(out, "\n") {
		assert.NotRegexp(t, `^\s+line\s+(error|warning|info)\b`, l, "a 'line' column with no number")
	}
	assert.Regexp(t, `\b1 error,`, out)
	assert.NotContains(t, out, "1 errors")

	// The real OpenCode database has exactly one warning.
	db, err := os.ReadFile(testdata(t, "opencode", "real", "opencode.db"))
	require.NoError(t, err)
	store := filepath.Join(t.TempDir(), "opencode")
	require.NoError(t, os.Mkdir(store, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(store, "opencode.db"), db, 0o644))
	out, _, err = run(t, f, store)
	require.NoError(t, err)
	assert.Contains(t, out, "0 errors, 1 warning, 1 info")
	for _, l := range strings.Split(out, "\n") {
		assert.NotRegexp(t, `^\s+line\s+(error|warning|info)\b`, l, "a 'line' column with no number")
	}
}

// Issue 11 item 10: check --all checks the OpenClaw sessions.json stores
// of every discovered state folder, not only the transcripts they name.
func TestAllCoversOpenClawIndexes(t *testing.T) {
	state := testdata(t, "openclaw", "state")
	f := factory(t, map[string]string{"OPENCLAW_STATE_DIR": state})
	f.JSON = true
	out, _, err := run(t, f, "--all")
	assert.ErrorIs(t, err, cmdutil.ErrProblems)
	var res struct {
		Files []struct {
			Path     string `json:"path"`
			Agent    string `json:"agent"`
			Problems []struct {
				Code string `json:"code"`
				ID   string `json:"id"`
			} `json:"problems"`
		} `json:"files"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	codes := map[string]bool{}
	paths := map[string]int{}
	for _, fr := range res.Files {
		paths[fr.Path]++
		for _, p := range fr.Problems {
			codes[p.Code] = true
		}
	}
	assert.True(t, codes["missing-transcript"], "the index entry whose transcript is gone is named: %s", out)
	assert.True(t, codes["index-corrupt"], "the work agent's corrupt sessions.json is named")
	for p, n := range paths {
		assert.Equal(t, 1, n, "%s checked once", p)
	}
	// Issue 15 item 4: OpenClaw transcripts are openclaw's, as list says.
	transcripts := 0
	for _, fr := range res.Files {
		if strings.HasSuffix(fr.Path, ".jsonl") {
			transcripts++
			assert.Equal(t, "openclaw", fr.Agent, fr.Path)
		}
	}
	assert.Positive(t, transcripts)
}

// Issue 11 item 3: a temp file a killed sessctl write left beside a session
// is reported (stale-temp, a warning); a live writer's temp is not.
func TestStaleTempReported(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(testdata(t, "pi", "parity", "sessions", "001-linear-minimal.jsonl"))
	require.NoError(t, err)
	p := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(p, src, 0o644))
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	dead := c.Process.Pid
	stale := filepath.Join(dir, fmt.Sprintf(".s.jsonl.sessctl-%d-0123456789abcdef.tmp", dead))
	require.NoError(t, os.WriteFile(stale, src, 0o600))
	live := filepath.Join(dir, fmt.Sprintf(".s.jsonl.sessctl-%d-fedcba9876543210.tmp", os.Getpid()))
	require.NoError(t, os.WriteFile(live, src, 0o600))

	f := factory(t, nil)
	f.JSON = true
	out, _, err := run(t, f, p)
	require.NoError(t, err, "a warning alone passes")
	var res struct {
		Files []struct {
			Problems []struct {
				Code, Severity, Message string
			} `json:"problems"`
		} `json:"files"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.Len(t, res.Files, 1)
	var got []string
	for _, p := range res.Files[0].Problems {
		if p.Code == "stale-temp" {
			assert.Equal(t, "warning", p.Severity)
			got = append(got, p.Message)
		}
	}
	require.Len(t, got, 1, out)
	assert.Contains(t, got[0], filepath.Base(stale))
	assert.Contains(t, got[0], strconv.Itoa(dead))
	_, err = os.Stat(stale)
	assert.NoError(t, err, "check changes nothing")
}

// Issue 15 item 3: every reference list prints is accepted by check: an
// OpenCode "<db>#<id>" (only that session's problems) and an `opencode
// export` file (which show reads).
func TestChecksStoreRefsAndExports(t *testing.T) {
	db, err := os.ReadFile(testdata(t, "opencode", "real", "opencode.db"))
	require.NoError(t, err)
	store := filepath.Join(t.TempDir(), "opencode")
	require.NoError(t, os.Mkdir(store, 0o755))
	p := filepath.Join(store, "opencode.db")
	require.NoError(t, os.WriteFile(p, db, 0o644))
	f := factory(t, nil)
	f.JSON = true

	type result struct {
		Files []struct {
			Path, Agent, Error string
			Problems           []struct{ Code, ID string }
		} `json:"files"`
	}
	out, _, err := run(t, f, p+"#ses_7e5f3a9b0f00Kk9Ll0Mm1Nn2Oo")
	require.NoError(t, err, out)
	var r result
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	require.Len(t, r.Files, 1)
	assert.Empty(t, r.Files[0].Error)
	assert.Equal(t, "opencode", r.Files[0].Agent)
	require.Len(t, r.Files[0].Problems, 1, "only the pending revert of this session")
	assert.Equal(t, "revert-pending", r.Files[0].Problems[0].Code)

	exp := testdata(t, "opencode", "real", "export", "ses_7e5f3a9b0f00Kk9Ll0Mm1Nn2Oo.json")
	out, _, err = run(t, f, exp)
	require.NoError(t, err, out)
	r = result{}
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	require.Len(t, r.Files, 1)
	assert.Empty(t, r.Files[0].Error, "an export file is an OpenCode session")
	assert.Equal(t, "opencode", r.Files[0].Agent)
}

// check --all on an OpenClaw state holding only an agent database checks
// each of its sessions by reference (the database file itself is no
// session a format could tell).
func TestAllChecksOpenClawDatabaseSessions(t *testing.T) {
	state := testdata(t, "openclaw", "sqlite-state")
	f := factory(t, map[string]string{"OPENCLAW_STATE_DIR": state})
	f.JSON = true
	out, _, err := run(t, f, "--all")
	require.NoError(t, err, out)
	var res struct {
		Files []struct{ Path, Agent, Error string } `json:"files"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.NotEmpty(t, res.Files)
	for _, fr := range res.Files {
		assert.Empty(t, fr.Error, fr.Path)
		assert.Contains(t, fr.Path, "openclaw-agent.sqlite#")
		assert.Equal(t, "openclaw", fr.Agent)
	}
}

// Every format the registry opens can be checked: no reference list prints
// is answered "not supported" by check.
func TestChecksEveryFormat(t *testing.T) {
	args := []string{
		testdata(t, "pi", "parity", "sessions", "001-linear-minimal.jsonl"),
		testdata(t, "claude", "shapes", "compact.jsonl"),
		testdata(t, "agentcore", "branched.jsonl"),
		testdata(t, "opencode", "real", "export", "ses_7e5f3a9b1c01Aa1Bb2Cc3Dd4Ee.json"),
		testdata(t, "openclaw", "state", "agents", "main", "sessions", "a1b2c3d4-0000-4000-8000-000000000001.jsonl"),
		testdata(t, "openclaw", "sqlite-state", "agents", "ops", "agent", "openclaw-agent.sqlite") + "#c1",
	}
	f := factory(t, nil)
	f.JSON = true
	out, _, _ := run(t, f, args...)
	var res struct {
		Files []struct{ Path, Agent, Error string } `json:"files"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.Len(t, res.Files, len(args))
	agents := []string{"pi", "claude", "agentcore", "opencode", "openclaw", "openclaw"}
	for i, fr := range res.Files {
		assert.Empty(t, fr.Error, fr.Path)
		assert.Equal(t, agents[i], fr.Agent, fr.Path)
	}
}

// Issue 11 item 2: a journal an interrupted repair left beside the session
// (rejected lines not yet in the sidecar) is reported (pending-journal, a
// warning naming `sessctl repair`); a live repair's journal is not.
func TestPendingJournalReported(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(testdata(t, "pi", "parity", "sessions", "001-linear-minimal.jsonl"))
	require.NoError(t, err)
	p := filepath.Join(dir, "s.jsonl")
	require.NoError(t, os.WriteFile(p, src, 0o644))
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	dead := c.Process.Pid
	journal := filepath.Join(dir, fmt.Sprintf(".s.jsonl.rejected.jsonl.sessctl-%d-0123456789abcdef.journal", dead))
	require.NoError(t, os.WriteFile(journal, []byte(`{"sessctl":"sidecar-journal"}`+"\n"), 0o600))
	other := filepath.Join(dir, fmt.Sprintf(".t.jsonl.rejected.jsonl.sessctl-%d-0123456789abcdef.journal", dead))
	require.NoError(t, os.WriteFile(other, []byte(`{"sessctl":"sidecar-journal"}`+"\n"), 0o600))

	f := factory(t, nil)
	f.JSON = true
	out, _, err := run(t, f, p)
	require.NoError(t, err, "a warning alone passes")
	var res struct {
		Files []struct {
			Problems []struct {
				Code, Severity, Message, Fix string
			} `json:"problems"`
		} `json:"files"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.Len(t, res.Files, 1)
	var got []string
	for _, pr := range res.Files[0].Problems {
		if pr.Code == "pending-journal" {
			assert.Equal(t, "warning", pr.Severity)
			assert.Equal(t, "sessctl repair "+p+" finishes it", pr.Fix)
			got = append(got, pr.Message)
		}
	}
	require.Len(t, got, 1, out)
	assert.Contains(t, got[0], filepath.Base(journal))
	_, err = os.Stat(journal)
	assert.NoError(t, err, "check changes nothing")
}
