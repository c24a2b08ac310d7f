package pi

import (
	"os"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// longTexts is the long-line callback of Texts with opts.Long set
// (sessfmt.LongTexts; pi decodes strings as encoding/json does, not
// loosely).
func longTexts(long func(*sessfmt.LongLine) error, texts func(line int, raw []byte, fn func(*sessfmt.Text) error) error) func(fh *os.File, line int, off, n int64) error {
	return sessfmt.LongTexts(long, false, texts)
}
