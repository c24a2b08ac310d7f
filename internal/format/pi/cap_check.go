package pi

import (
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Check is check's verdict on the file (sessfmt.Checker): the reader's
// problems and the pi rules (tool pairing and compaction anchors on the
// active path, outdated version, dangling blob references for oh-my-pi and
// xcsh).
func (s *Session) Check(opts sessfmt.CheckOptions) ([]problem.Problem, error) {
	return s.File.Check(CheckOptions{BlobDir: opts.BlobDir}), nil
}
