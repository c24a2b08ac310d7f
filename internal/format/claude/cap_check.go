package claude

import (
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Check is check's verdict on the transcript (sessfmt.Checker): damaged
// lines, the record graph (dangling parents, cycles, duplicates, legacy
// progress), leaf-mode disagreement, sizes, and tool pairing on the
// conversation Claude Code would resume.
func (s *Session) Check(sessfmt.CheckOptions) ([]problem.Problem, error) {
	ps := s.File.Problems()
	pp, err := s.File.PathProblems()
	if err != nil {
		return nil, err
	}
	return ToProblems(append(ps, pp...)), nil
}
