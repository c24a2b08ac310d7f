package sessfmt_test

import (
	"testing"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/sessfmt/formats"
)

// TestProjectFoldersOwnedOnce: each agent's project folder is named by one
// format only, and the agents without project folders by none.
func TestProjectFoldersOwnedOnce(t *testing.T) {
	want := map[string]int{"pi": 1, "omp": 2, "xcsh": 2, "claude": 1, "opencode": 0, "openclaw": 0, "agentcore": 0}
	for agent, n := range want {
		owners := 0
		for _, f := range formats.All(nil) {
			pf, ok := f.(sessfmt.ProjectFolderer)
			if !ok {
				continue
			}
			if names := pf.ProjectFolders(agent, "/home/u/p", "/home/u", "/tmp"); names != nil {
				owners++
				if len(names) != n {
					t.Errorf("%s: %s names %q, want %d names", agent, f.Name(), names, n)
				}
			}
		}
		if n > 0 && owners != 1 || n == 0 && owners != 0 {
			t.Errorf("%s: %d formats name its project folder", agent, owners)
		}
	}
}
