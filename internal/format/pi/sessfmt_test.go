package pi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The views' header title (from the index) is list's title (from
// ReadListInfo) for every pi-family file of the repository's testdata.
func TestHeaderTitleIsListTitle(t *testing.T) {
	n := 0
	for _, dir := range []string{"pi", "omp", "xcsh", "home", "openclaw"} {
		root := filepath.Join("..", "..", "..", "testdata", dir)
		err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() || !strings.HasSuffix(p, ".jsonl") || strings.Contains(p, ".claude") {
				return err
			}
			head, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if (Format{}).Sniff(p, head) < sessfmt.SniffSure {
				return nil
			}
			s, err := OpenSession(sessfmt.Ref{Path: p}, p, sessfmt.OpenOptions{})
			if err != nil {
				return nil
			}
			assert.Equal(t, s.listMeta().Title, s.headTitle(), p)
			n++
			return nil
		})
		require.NoError(t, err)
	}
	assert.Greater(t, n, 200)
}
