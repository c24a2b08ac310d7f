package discover

import (
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/session"
)

// Match returns the sessions an id argument names: those whose id equals it
// (case-insensitively), else those whose id or file name starts with it.
// Like pi's --session, a full id wins over prefixes.
func Match(ss []*Session, arg string) []*Session {
	a := strings.ToLower(arg)
	var exact, prefix []*Session
	for _, s := range ss {
		id := strings.ToLower(s.ID)
		base := strings.ToLower(strings.TrimSuffix(filepath.Base(s.Path), ".jsonl"))
		switch {
		case id == a:
			exact = append(exact, s)
		case strings.HasPrefix(id, a), strings.HasPrefix(base, a), strings.HasPrefix(strings.ToLower(IDFromFileName(s.Path)), a):
			prefix = append(prefix, s)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return prefix
}

// Resolver returns a session.Resolver that scans all roots (through the
// cache when cachePath is not "") and matches ids and id prefixes.
func Resolver(opts Options) session.Resolver {
	return func(arg string) ([]session.Ref, error) {
		if arg == "" {
			return nil, nil
		}
		res := Scan(opts)
		var refs []session.Ref
		for _, s := range Match(res.Sessions, arg) {
			refs = append(refs, session.Ref{Path: s.Path, Format: session.Format(s.Format), Agent: s.Agent})
		}
		return refs, nil
	}
}
