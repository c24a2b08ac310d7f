package cmdutil

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// IsSessionFileName says whether a file name looks like a session transcript
// found by searching a folder (*.jsonl, not one of sessctl's rejected-line
// sidecars).
func IsSessionFileName(name string) bool {
	return strings.HasSuffix(name, ".jsonl") && !strings.HasSuffix(name, ".rejected.jsonl")
}

// ExpandArgs turns the arguments of a command that takes many sessions
// (check, migrate) into what it works on, in order: with all, every session
// file and store of every discovered root first (AllSessionPaths); then
// each argument: a store the command handles whole (isStore says so; nil:
// none) as it is, a regular file as it is, a folder searched recursively for
// session files (repair sidecars skipped; unreadable subfolders kept, to be
// reported), a session id, unique id prefix or "<store>#<id>" reference
// resolved to the session's reference. An argument that names nothing is
// kept, to be reported as unreadable; an ambiguous id prefix is a usage
// error.
func (f *Factory) ExpandArgs(args []string, all bool, isStore func(string) bool) ([]string, error) {
	var out []string
	if all {
		paths, err := f.AllSessionPaths()
		if err != nil {
			return nil, err
		}
		out = append(out, paths...)
	}
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			ref, rerr := f.resolve(a)
			if rerr != nil {
				var ue *UsageError
				if errors.As(rerr, &ue) {
					return nil, rerr
				}
				out = append(out, a) // reported as unreadable
				continue
			}
			out = append(out, ref)
			continue
		}
		if isStore != nil && isStore(a) {
			out = append(out, a)
			continue
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		_ = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p != a {
					out = append(out, p)
				}
				return nil
			}
			if !d.IsDir() && IsSessionFileName(d.Name()) {
				out = append(out, p)
			}
			return nil
		})
	}
	return out, nil
}

// resolve turns an argument that is no file into the reference of the
// session it names (through the registry: "<store>#<id>", an id or unique
// id prefix); an ambiguous prefix is a usage error.
func (f *Factory) resolve(a string) (string, error) {
	if f.Registry == nil {
		return "", errors.New("internal error: no format registry on the factory")
	}
	ref, err := f.Registry.Resolve(a)
	if err != nil {
		var amb *sessfmt.AmbiguousError
		if errors.As(err, &amb) {
			return "", &UsageError{Err: err}
		}
		return "", err
	}
	return ref.String(), nil
}

// AllSessionPaths lists, for --all, every session of every discovered root
// (environment, config `roots:`): session files as they are, each store a
// format takes whole once (the part of a "<store>#<id>" path before '#'),
// the sessions of other stores by reference, and every OpenClaw agent's
// sessions folder that holds a
// sessions.json index (so the index is checked, not only the transcripts
// it names). Folders that could not be read are returned too, so that they
// are reported. Factory.AllSessions replaces discovery when set (tests).
func (f *Factory) AllSessionPaths() ([]string, error) {
	if f.AllSessions != nil {
		return f.AllSessions()
	}
	opts, err := f.DiscoverOptions(nil, false)
	if err != nil {
		return nil, err
	}
	res := discover.Scan(opts)
	stores, warns := discover.ListStores(opts)
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, s := range append(res.Sessions, stores...) {
		p := s.Path
		// A store a format takes whole (an OpenCode database or data
		// folder) is checked once; the sessions of other stores (an
		// OpenClaw agent database) one by one.
		if i := strings.LastIndex(p, "#"); i > 0 && (f.Registry == nil || f.Registry.Claims(p[:i])) {
			p = p[:i]
		}
		add(p)
	}
	for _, r := range discover.DefaultRoots(opts.Env, []string{"openclaw"}, opts.Extra) {
		idx, _ := filepath.Glob(filepath.Join(r.Path, "*", "sessions", "sessions.json"))
		for _, p := range idx {
			add(filepath.Dir(p))
		}
	}
	for _, w := range append(res.Warnings, warns...) {
		add(w.Path)
	}
	return out, nil
}
