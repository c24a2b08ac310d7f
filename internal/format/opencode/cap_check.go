package opencode

import (
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Check is check's verdict (sessfmt.Checker). A whole store (a data
// folder, storage tree or database) reports every problem of the store; one
// session of a store ("<store>#<id>") the problems that concern it; an
// `opencode export` file holds one session as OpenCode wrote it and has
// none of a store's problems. Each store problem carries its Location.
func (o *Opened) Check(sessfmt.CheckOptions) ([]problem.Problem, error) {
	if o.Store == nil {
		return nil, nil
	}
	ps := o.Store.Check()
	if o.ref.ID == "" {
		return ps, nil
	}
	id := o.ref.ID
	if o.T != nil {
		id = o.T.Session.ID
	}
	var out []problem.Problem
	for _, p := range ps {
		if p.ID == id {
			out = append(out, p)
		}
	}
	return out, nil
}
