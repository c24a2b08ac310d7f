package formats_test

import (
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// claudeRoots are the folders under dirs that hold Claude Code project
// folders: the grandparent of every .jsonl file that is not a subagent
// transcript (list finds those from their session's folder).
func claudeRoots(t *testing.T, dirs ...string) []string {
	seen := map[string]bool{}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		require.NoError(t, err)
		require.NoError(t, filepath.WalkDir(abs, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && strings.HasSuffix(p, ".jsonl") && filepath.Base(filepath.Dir(p)) != "subagents" {
				seen[filepath.Dir(filepath.Dir(p))] = true
			}
			return nil
		}))
	}
	var out []string
	for r := range seen {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// One verdict for Claude Code (issue 11.14): every transcript list finds
// under testdata/claude and testdata/home has, opened through the
// registry, the id, title, title source, cwd and message count list shows
// (both take the /resume picker's title from claude.ListInfo).
func TestClaudeMetaIsListRow(t *testing.T) {
	r := formats.New(nil)
	n, titled := 0, 0
	for _, root := range claudeRoots(t, "../../../testdata/claude", "../../../testdata/home/.claude") {
		res := discover.Scan(discover.Options{Agents: []string{"claude"},
			Extra: []discover.Root{{Agent: "claude", Path: root, Source: "--root", Explicit: true}}})
		for _, row := range res.Sessions {
			s, err := r.Open(row.Path, sessfmt.OpenOptions{})
			if err != nil {
				continue // a file list shows that no format can open
			}
			if s.Ref().Format != "claude" {
				s.Close()
				continue // another agent's file under a Claude Code fixture folder
			}
			m := s.Meta()
			assert.Equal(t, row.ID, m.ID, row.Path)
			assert.Equal(t, row.Title, m.Title, row.Path)
			assert.Equal(t, row.TitleSource, m.TitleSource, row.Path)
			assert.Equal(t, row.Messages, m.Messages, row.Path)
			assert.Equal(t, row.Cwd, m.Cwd, row.Path)
			s.Close()
			n++
			if m.Title != "" {
				titled++
			}
		}
	}
	t.Logf("%d Claude Code transcripts, %d titled", n, titled)
	assert.Greater(t, n, 60)
	assert.Greater(t, titled, 40)
}
