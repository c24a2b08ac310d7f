package cmdutil

import "github.com/sessctl/sessctl/internal/discover"

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
