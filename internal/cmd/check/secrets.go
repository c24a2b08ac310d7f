package check

import (
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/secrets"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// appendSecrets adds a secret-in-transcript problem for each secret in the
// session's text (check --secrets).
func appendSecrets(ps []problem.Problem, s sessfmt.Session) ([]problem.Problem, error) {
	det, err := secrets.Default()
	if err != nil {
		return ps, err
	}
	found, err := det.Scan(s)
	if err != nil {
		return ps, err
	}
	return append(ps, found...), nil
}
