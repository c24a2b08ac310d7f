package check

import (
	"github.com/sessctl/sessctl/internal/format/agentcore"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/session"
)

func init() { Checkers[session.FormatAgentCore] = checkAgentCore }

// checkAgentCore checks an Agent Core file: bad lines, tree problems and
// tool call/result pairing.
func checkAgentCore(path string, _ *Options) (string, []problem.Problem, error) {
	s, err := agentcore.Read(path)
	if err != nil {
		return "agentcore", nil, err
	}
	ps, err := s.Check()
	return "agentcore", ps, err
}
