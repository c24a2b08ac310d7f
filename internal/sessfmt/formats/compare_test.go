package formats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/session"
)

func TestSniffSameAsDetect(t *testing.T) {
	r := New(nil)
	n := 0
	for _, root := range []string{"../../../testdata", "../../../../shared/corpus", "../../format"} {
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() || !strings.HasSuffix(p, ".jsonl") || !info.Mode().IsRegular() {
				return nil
			}
			old, err := session.Detect(p)
			if err != nil {
				return nil
			}
			ref, err := r.SniffFile(p)
			got := ref.Format
			if err != nil {
				got = "unknown"
			}
			n++
			if got != string(old) {
				t.Errorf("%s: registry %s, detect %s", p, got, old)
			}
			return nil
		})
	}
	t.Logf("%d files", n)
}
