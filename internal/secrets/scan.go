package secrets

import (
	"fmt"

	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Code is the problem code of a secret found in a session.
const Code = "secret-in-transcript"

// Scan reads every text of s (every kind, every branch: what a person or
// the model wrote, thinking, tool input and output, titles) and returns one
// problem per secret found, in file order: its kind, line and entry, and in
// which text it is. The secret itself is never in the problem.
func (d *Detector) Scan(s sessfmt.Session) ([]problem.Problem, error) {
	tx, ok := s.(sessfmt.Texter)
	if !ok {
		return nil, sessfmt.Unsupported(s, "secret scanning")
	}
	var out []problem.Problem
	err := tx.Texts(sessfmt.TextOptions{Kinds: sessfmt.TextAll}, func(t *sessfmt.Text) error {
		for _, f := range d.Find(t.Text) {
			where := t.Kind.String()
			if t.Role != "" {
				where = t.Role + " " + where
			}
			out = append(out, problem.Problem{
				Code: Code, Severity: problem.Error, Line: t.Line, ID: t.EntryID,
				Message: fmt.Sprintf("a secret of kind %s in the %s", f.Kind, where),
				Fix:     "rotate the credential, then sessctl export --redact (or remove the session) before sharing it",
			})
		}
		return nil
	})
	return out, err
}
