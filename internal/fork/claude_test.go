package fork

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/stretchr/testify/require"
)

func claudeFixtures(t *testing.T) []string {
	var out []string
	filepath.WalkDir("../../testdata/claude", func(p string, d os.DirEntry, err error) error {
		// parity/ holds 166 loader cases resumed by the real CLI (not fork
		// fixtures; forking every entry of each would take minutes)
		if err == nil && d.IsDir() && d.Name() == "parity" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && !strings.Contains(p, "/fuzz/") {
			out = append(out, p)
		}
		return nil
	})
	if len(out) == 0 {
		t.Skip("fixtures missing")
	}
	return out
}

// messages is what `sessctl show --json` prints as "messages" for leaf
// ("" = the default leaf), without the line numbers (which a copy cannot
// keep) and the loader's "rescued" mark (the fork chains every record, so
// nothing needs rescuing).
func messages(t *testing.T, f *claude.File, leaf string) []map[string]any {
	p, err := f.Walk(leaf, false)
	require.NoError(t, err)
	p.NoText = true
	var out []map[string]any
	require.NoError(t, f.EachTurn(p, func(tn *claude.Turn) error {
		var m map[string]any
		require.NoError(t, json.Unmarshal(tn.AppendJSON(nil), &m))
		delete(m, "lines")
		delete(m, "rescued")
		out = append(out, m)
		return nil
	}))
	return out
}

func TestClaudeForkEqualsSourceAtEveryEntry(t *testing.T) {
	forks := 0
	for _, fx := range claudeFixtures(t) {
		src, err := claude.Open(fx)
		require.NoError(t, err)
		tr, err := src.Tree(claude.LeafLastPrompt)
		require.NoError(t, err)
		ats := []string{""}
		for _, n := range tr.Nodes {
			ats = append(ats, n.ID)
		}
		for _, at := range ats {
			dir := t.TempDir()
			out := filepath.Join(dir, "fork.jsonl")
			res, err := Claude(fx, Options{At: at, Output: out})
			if at == "" && src.ResumesEmpty() {
				// Claude Code resumes an empty conversation here: nothing to fork
				require.ErrorContains(t, err, "nothing to fork", fx)
				continue
			}
			require.NoError(t, err, "%s at %q", fx, at)
			forks++
			want := messages(t, src, at)
			g, err := claude.Open(out)
			require.NoError(t, err)
			leaf, _ := g.Leaf(claude.LeafLastPrompt)
			if leaf == "" { // no user/assistant record: no leaf of its own
				leaf = res.At
			}
			got := messages(t, g, leaf)
			require.Equal(t, want, got, "%s at %q: the fork's conversation differs", fx, at)
			require.Equal(t, len(want) > 0, res.Entries > 0)
			for _, pr := range g.ProblemList() {
				require.NotEqual(t, problem.Error, pr.Severity, "%s at %q: %s", fx, at, pr)
			}
			// every line: new sessionId, forkedFrom naming the source line
			b, _ := os.ReadFile(out)
			for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
				var m map[string]any
				require.NoError(t, json.Unmarshal([]byte(l), &m))
				require.Equal(t, res.SessionID, m["sessionId"])
				ff := m["forkedFrom"].(map[string]any)
				require.Equal(t, m["uuid"], ff["messageUuid"])
				require.NotEmpty(t, ff["sessionId"])
				require.True(t, strings.HasPrefix(l, `{"parentUuid":`), "parentUuid stays the first key: %s", l)
			}
			st, _ := os.Stat(out)
			require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
			g.Close()
		}
		src.Close()
	}
	t.Logf("%d forks compared", forks)
}

func TestClaudeForkDefaultNameAndDryRun(t *testing.T) {
	b, err := os.ReadFile("../../testdata/claude/shapes/rewind.jsonl")
	if err != nil {
		t.Skip("fixtures missing")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "aaaaaaaa-0000-4000-8000-000000000001.jsonl")
	require.NoError(t, os.WriteFile(src, b, 0o644))
	res, err := Claude(src, Options{DryRun: true})
	require.NoError(t, err)
	ents, _ := os.ReadDir(dir)
	require.Len(t, ents, 1, "dry run wrote nothing")
	res, err = Claude(src, Options{})
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, res.SessionID+".jsonl"), res.Path)
	out, err := os.ReadFile(res.Path)
	require.NoError(t, err)
	require.Contains(t, string(out), `"forkedFrom":{"sessionId":"aaaaaaaa-0000-4000-8000-000000000001","messageUuid":`)
	after, _ := os.ReadFile(src)
	require.Equal(t, b, after, "the source is never changed")
	_, err = Claude(src, Options{Output: res.Path})
	require.Error(t, err, "an existing file is never overwritten")
	_, err = Claude(src, Options{Full: true})
	require.Error(t, err)
}

func TestClaudeForkCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/corpus/claude-code/*/*.jsonl")
	if len(files) == 0 {
		t.Skip("shared corpus not present")
	}
	forks := 0
	for _, fx := range files {
		src, err := claude.Open(fx)
		require.NoError(t, err)
		tr, err := src.Tree(claude.LeafLastPrompt)
		require.NoError(t, err)
		ats := []string{""}
		step := 1
		if testing.Short() {
			step = 13
		}
		for i := 0; i < len(tr.Nodes); i += step {
			ats = append(ats, tr.Nodes[i].ID)
		}
		for _, at := range ats {
			out := filepath.Join(t.TempDir(), "fork.jsonl")
			res, err := Claude(fx, Options{At: at, Output: out})
			require.NoError(t, err, "%s at %q", fx, at)
			g, err := claude.Open(out)
			require.NoError(t, err)
			leaf, _ := g.Leaf(claude.LeafLastPrompt)
			if leaf == "" {
				leaf = res.At
			}
			require.Equal(t, messages(t, src, at), messages(t, g, leaf), "%s at %q", fx, at)
			g.Close()
			forks++
		}
		src.Close()
	}
	t.Logf("%d forks of public samples compared", forks)
}
