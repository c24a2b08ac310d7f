package formats

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	piHeader  = `{"type":"session","version":3,"id":"019a","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}`
	piEntry   = `{"type":"message","id":"a1","parentId":null,"message":{"role":"user","content":"hi"}}`
	claudeRec = `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","cwd":"/x","message":{"role":"user","content":"hi"}}`
	acEntry   = `{"type":"user","id":"e1","timestamp":1700000000000,"content":"hi"}`
)

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// The decisions the former internal/session.Detect made, kept by the formats'
// Sniff methods: a pi header is certain; otherwise votes, ties going to
// Claude Code, then Agent Core, then pi; with no vote, the folder.
func TestSniffDecisions(t *testing.T) {
	r := New(nil)
	cases := []struct {
		name, dir, content, want string
	}{
		{"pi header", "", lines(piHeader, piEntry), "pi"},
		{"pi header after Claude records", "", lines(claudeRec, claudeRec, piHeader), "pi"},
		{"oh-my-pi title slot", "", lines(`{"type":"title","v":1,"title":"x"}`, piEntry), "pi"},
		{"Claude records", "", lines(claudeRec, claudeRec), "claude"},
		{"Claude-only line types", "", lines(`{"type":"file-history-snapshot","messageId":"m"}`), "claude"},
		{"headerless pi beats fewer Claude records", "", lines(piEntry, piEntry, claudeRec), "pi"},
		{"pi and Claude tie: Claude", "", lines(piEntry, claudeRec), "claude"},
		{"Agent Core", "", lines(acEntry, acEntry), "agentcore"},
		{"Agent Core and Claude tie: Claude", "", lines(acEntry, claudeRec), "claude"},
		{"pi and Agent Core tie: Agent Core", "", lines(acEntry, piEntry), "agentcore"},
		{"a pi entry with Claude keys is Claude's", "", lines(`{"type":"message","id":"a","uuid":"u"}`), "claude"},
		{"nothing known, Claude folder", ".claude/projects/p", lines(`{"x":1}`), "claude"},
		{"nothing known, pi folder", ".pi/agent/sessions/p", lines(`{"x":1}`), "pi"},
		{"nothing known, Agent Core folder", ".pi/sessions", lines(`{"x":1}`), "agentcore"},
		{"nothing known anywhere", "elsewhere", lines(`{"x":1}`), ""},
		{"votes beat the folder", ".claude/projects/p", lines(acEntry), "agentcore"},
		{"a first line longer than the sniff head", "", lines(`{"type":"user","uuid":"u1","parentUuid":null,"message":{"content":"`+strings.Repeat("a", sessfmt.SniffBytes)+`"}}`, claudeRec), "claude"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), c.dir)
			require.NoError(t, os.MkdirAll(dir, 0o755))
			p := filepath.Join(dir, "s.jsonl")
			require.NoError(t, os.WriteFile(p, []byte(c.content), 0o644))
			ref, err := r.SniffFile(p)
			if c.want == "" {
				var ns *sessfmt.NotSessionError
				assert.True(t, errors.As(err, &ns), "want NotSessionError, got %v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, ref.Format)
		})
	}
}

// Every session file in the repository's testdata is read as the format
// of the folder it lives in.
func TestSniffTestdata(t *testing.T) {
	r := New(nil)
	want := func(p string) string {
		s := filepath.ToSlash(p)
		switch {
		case strings.Contains(s, "/testdata/claude/"), strings.Contains(s, "/.claude/projects/"):
			return "claude"
		case strings.Contains(s, "/testdata/agentcore/"):
			return "agentcore"
		case strings.Contains(s, "/testdata/pi/"), strings.Contains(s, "/testdata/omp/"), strings.Contains(s, "/testdata/xcsh/"),
			strings.Contains(s, "/testdata/openclaw/"), strings.Contains(s, "/testdata/home/"):
			return "pi"
		}
		return ""
	}
	n := 0
	err := filepath.Walk("../../../testdata", func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".jsonl") || !info.Mode().IsRegular() {
			return err
		}
		w := want(p)
		if w == "" {
			return nil
		}
		ref, err := r.SniffFile(p)
		var ns *sessfmt.NotSessionError
		if errors.As(err, &ns) {
			return nil // not a session (fixtures of damage that no reader claims)
		}
		if assert.NoError(t, err, p) {
			assert.Equal(t, w, ref.Format, p)
		}
		n++
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, n, 300)
}

// Store references are claimed before anything is sniffed.
func TestClaims(t *testing.T) {
	r := New(func(string) string { return "" })
	db := "../../../testdata/openclaw/sqlite-state/agents/ops/agent/openclaw-agent.sqlite"
	ref, err := r.Resolve(db + "#c1")
	require.NoError(t, err)
	assert.Equal(t, sessfmt.Ref{Format: "openclaw", Agent: "openclaw", Path: db, ID: "c1"}, ref)
	assert.Equal(t, db+"#c1", ref.String())

	oc := "../../../testdata/opencode/real/opencode.db"
	ref, err = r.Resolve(oc + "#ses_x")
	require.NoError(t, err)
	assert.Equal(t, sessfmt.Ref{Format: "opencode", Agent: "opencode", Path: oc, ID: "ses_x"}, ref)

	_, err = r.Resolve(t.TempDir())
	assert.ErrorContains(t, err, "is a directory")
}
