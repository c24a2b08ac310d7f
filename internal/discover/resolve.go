package discover

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/sessctl/sessctl/internal/sessfmt"
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
		case strings.HasPrefix(id, a):
			prefix = append(prefix, s)
		case strings.Contains(s.Path, "#"):
			// a session in a store: only its id names it
		case strings.HasPrefix(base, a), strings.HasPrefix(strings.ToLower(IDFromFileName(s.Path)), a):
			prefix = append(prefix, s)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return prefix
}

// IDLookup returns the registry's id lookup (sessfmt.Registry.Lookup): it
// scans all roots (through the list cache when opts has one) and matches
// ids and id prefixes.
func IDLookup(opts Options) func(idOrPrefix string) ([]sessfmt.Ref, error) {
	return func(arg string) ([]sessfmt.Ref, error) {
		if arg == "" {
			return nil, nil
		}
		res := Scan(opts)
		// Sessions kept in stores (OpenCode, OpenClaw databases) are named
		// by id too: list prints them, and ids without OpenCode's ses_
		// prefix are claimed by no format.
		stored, _ := ListStores(opts)
		var refs []sessfmt.Ref
		for _, s := range Match(append(res.Sessions, stored...), arg) {
			refs = append(refs, sessfmt.Ref{Path: s.Path, Format: s.Format, Agent: s.Agent})
		}
		return refs, nil
	}
}

// ShortIDs returns, for each session, the shortest prefix of its id (at
// least min characters) that no other session's id shares, compared
// case-insensitively as Match does — like git's short hashes, so what a
// table shows can be passed back to show, tree and the rest. An id that
// another session has in full is returned whole.
func ShortIDs(ss []*Session, min int) map[*Session]string {
	type item struct {
		id string
		s  *Session
	}
	items := make([]item, len(ss))
	for i, s := range ss {
		items[i] = item{strings.ToLower(s.ID), s}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].id < items[j].id })
	lcp := func(a, b string) int {
		n := 0
		for n < len(a) && n < len(b) && a[n] == b[n] {
			n++
		}
		return n
	}
	out := make(map[*Session]string, len(ss))
	for i, it := range items {
		need := min
		if i > 0 {
			need = max(need, lcp(items[i-1].id, it.id)+1)
		}
		if i+1 < len(items) {
			need = max(need, lcp(items[i+1].id, it.id)+1)
		}
		if need > len(it.s.ID) {
			need = len(it.s.ID)
		}
		out[it.s] = it.s.ID[:need]
	}
	return out
}
