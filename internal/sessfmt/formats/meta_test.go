package formats_test

import (
	"path/filepath"
	"testing"

	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// One verdict: a session opened through the registry has the id, title
// and message count list shows for it. (Claude Code: TestClaudeMetaIsListRow.)
func TestMetaIsListRow(t *testing.T) {
	r := formats.New(nil)
	n := 0
	for _, root := range []struct{ agent, dir string }{
		{"pi", "../../../testdata/home/.pi/agent/sessions"},
		{"omp", "../../../testdata/home/.omp/agent/sessions"},
		{"xcsh", "../../../testdata/home/.xcsh/agent/sessions"},
		{"agentcore", "../../../testdata/agentcore"},
	} {
		abs, err := filepath.Abs(root.dir)
		require.NoError(t, err)
		res := discover.Scan(discover.Options{Agents: []string{root.agent},
			Extra: []discover.Root{{Agent: root.agent, Path: abs, Source: "--root", Explicit: true}}})
		for _, row := range res.Sessions {
			s, err := r.Open(row.Path, sessfmt.OpenOptions{})
			if err != nil {
				continue // a file list shows that no format can open
			}
			m := s.Meta()
			assert.Equal(t, row.ID, m.ID, row.Path)
			assert.Equal(t, row.Title, m.Title, row.Path)
			assert.Equal(t, row.TitleSource, m.TitleSource, row.Path)
			assert.Equal(t, row.Messages, m.Messages, row.Path)
			assert.Equal(t, row.Cwd, m.Cwd, row.Path)
			s.Close()
			n++
		}
	}
	assert.Greater(t, n, 5)
}
