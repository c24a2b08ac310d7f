package check

import (
	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/session"
)

func init() { Checkers[session.FormatClaude] = checkClaude }

// checkClaude checks a Claude Code transcript: damaged lines, the record
// graph (dangling parents, cycles, duplicates, legacy progress), leaf-mode
// disagreement, sizes, and tool pairing on the conversation Claude Code
// would resume.
func checkClaude(path string, _ *Options) (string, []problem.Problem, error) {
	f, err := claude.Open(path)
	if err != nil {
		return "claude", nil, err
	}
	defer f.Close()
	ps := f.Problems()
	pp, err := f.PathProblems()
	if err != nil {
		return "claude", nil, err
	}
	return "claude", claude.ToProblems(append(ps, pp...)), nil
}
