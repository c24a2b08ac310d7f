package pi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

func ompTranscriptOf(t *testing.T, file string, d Dialect) (header string, markers []string, texts []string) {
	t.Helper()
	f, err := Open(file, Options{Dialect: d})
	require.NoError(t, err)
	ctx, err := f.BuildContext(tree.None)
	require.NoError(t, err)
	tr := f.Transcript(ctx)
	for _, m := range tr.Messages {
		markers = append(markers, m.Marker)
		for _, b := range m.Blocks {
			texts = append(texts, b.Name+"|"+b.Args+"|"+b.Text)
		}
	}
	return strings.Join(tr.Header, "\n"), markers, texts
}

func TestOmpTranscriptHeader(t *testing.T) {
	h, _, _ := ompTranscriptOf(t, "../../../testdata/omp/parity/sessions/002-model-roles.jsonl", DialectOmp)
	require.Contains(t, h, "models: default google/gemini-3-pro, smol anthropic/claude-haiku-4-5, slow openai/gpt-5.2")
	h, _, _ = ompTranscriptOf(t, "../../../testdata/omp/parity/sessions/008-mode-change.jsonl", DialectOmp)
	require.Contains(t, h, "\nmode plan")
	h, _, _ = ompTranscriptOf(t, "../../../testdata/omp/parity/sessions/007-ttsr-union.jsonl", DialectOmp)
	require.Contains(t, h, "injected rules (3): no-console-log, prefer-const, other-branch-rule")
	h, _, _ = ompTranscriptOf(t, "../../../testdata/xcsh/parity/sessions/001-context-change-basic.jsonl", DialectXcsh)
	require.Contains(t, h, "active context prod (tenant example-corp-prod)")
	h, _, _ = ompTranscriptOf(t, "../../../testdata/xcsh/parity/sessions/003-mcp-tool-selection.jsonl", DialectXcsh)
	require.Contains(t, h, "MCP tools selected (")
}

func TestOmpTranscriptRoles(t *testing.T) {
	_, markers, texts := ompTranscriptOf(t, "../../../testdata/omp/parity/sessions/031-message-roles.jsonl", DialectOmp)
	require.Contains(t, markers, "python")
	require.Contains(t, markers, "file mention")
	require.Contains(t, texts, "python|print(1)|")
	require.Contains(t, texts, "exit 0||1\n")
	require.Contains(t, texts, "||src/a.ts")
}

// Some xcsh revisions record the active F5 XC profile as profile_change
// {profileName, tenant} (surfaced as activeProfileName/Tenant) instead of
// context_change.
func TestXcshProfileChange(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.jsonl")
	body := `{"type":"session","version":3,"id":"14aaa843a0000009","timestamp":"2026-04-01T09:00:00.000Z","cwd":"/w"}
{"type":"profile_change","id":"a1","parentId":null,"timestamp":"2026-04-01T09:00:01.000Z","profileName":"staging","tenant":"acme"}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-04-01T09:00:02.000Z","message":{"role":"user","content":"hi","timestamp":1}}
`
	require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
	f, err := Open(p, Options{})
	require.NoError(t, err)
	require.Equal(t, DialectXcsh, f.Dialect)
	ctx, err := f.BuildContext(tree.None)
	require.NoError(t, err)
	require.JSONEq(t, `{"messages":[{"role":"user","content":"hi","timestamp":1}],"thinkingLevel":"off","models":{},
		"activeProfileName":"staging","activeProfileTenant":"acme","injectedTtsrRules":[],"selectedMCPToolNames":[],
		"hasPersistedMCPToolSelection":false,"mode":"none"}`, string(contextJSON(ctx)))
	require.Contains(t, strings.Join(f.Transcript(ctx).Header, "\n"), "active profile staging (tenant acme)")
}
