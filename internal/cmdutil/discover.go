package cmdutil

import (
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/discover"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// DiscoverOptions are the discovery options of the environment and the
// config file (`roots:`), with each --root spec (KIND=PATH) added and, for
// --no-cache, no list cache. A bad --root is a usage error.
func (f *Factory) DiscoverOptions(roots []string, noCache bool) (discover.Options, error) {
	var get discover.ConfigGetter
	if f.Config != nil {
		get = f.Config.Get
	}
	sopts, err := discover.OptionsFrom(f.Getenv, get)
	if err != nil {
		return sopts, err
	}
	for _, spec := range roots {
		r, err := discover.ParseRoot(spec, sopts.Env)
		if err != nil {
			return sopts, FlagErrorf("--root: %v", err)
		}
		sopts.Extra = append(sopts.Extra, r)
	}
	if noCache {
		sopts.Cache = ""
	}
	return sopts, nil
}

// CheckAgents makes an --agent value that names no discovered agent kind
// a usage error.
func CheckAgents(agents []string) error {
	for _, a := range agents {
		if _, ok := discover.Lookup(a); !ok {
			return FlagErrorf("unknown --agent %q (kinds: %s)", a, strings.Join(discover.Agents(), ", "))
		}
	}
	return nil
}

// CheckFilters is CheckAgents and CheckSince: the usage checks of the
// discovery filters a command over many sessions takes.
func CheckFilters(agents []string, since string, now time.Time) error {
	if err := CheckAgents(agents); err != nil {
		return err
	}
	return CheckSince(since, now)
}

// CheckSince makes a --since that ParseSince cannot read a usage error (""
// is no filter).
func CheckSince(since string, now time.Time) error {
	if since == "" {
		return nil
	}
	if _, err := ParseSince(since, now); err != nil {
		return FlagErrorf("%v", err)
	}
	return nil
}

// SessionRef is the registry's reference to a listed session: its file as
// discovery found it when the registry knows its format, else (a session
// in a store, "<store>#<id>") what the registry resolves its path to.
func (f *Factory) SessionRef(s *discover.Session) (sessfmt.Ref, error) {
	if !strings.Contains(s.Path, "#") && f.Registry != nil && f.Registry.Format(s.Format) != nil {
		return sessfmt.Ref{Format: s.Format, Agent: s.Agent, Path: s.Path}, nil
	}
	return f.Resolve(s.Path)
}
