package cmdutil

import (
	"errors"

	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/session"
	"github.com/spf13/viper"
)

// Factory carries the dependencies commands share. Fields are filled by the
// root command before any command runs.
type Factory struct {
	IO     *iostreams.IOStreams
	Config *viper.Viper
	// JSON is the global --json flag.
	JSON bool
	// Getenv reads the environment (os.Getenv outside tests).
	Getenv func(string) string
	// Resolver looks session ids and id prefixes up across all discovered
	// roots (nil: only paths are accepted).
	Resolver func() session.Resolver
	// AllSessions lists every session file and store for --all (nil:
	// discovery; see AllSessionPaths in args.go).
	AllSessions func() ([]string, error)
}

// ResolveSession resolves a session argument: a path, a session id or a
// unique id prefix. An ambiguous prefix is a usage error (exit 2).
func (f *Factory) ResolveSession(arg string) (session.Ref, error) {
	var lookup session.Resolver
	if f.Resolver != nil {
		lookup = f.Resolver()
	}
	ref, err := session.Resolve(arg, lookup)
	if err != nil {
		var amb *session.AmbiguousError
		if errors.As(err, &amb) {
			return ref, &UsageError{Err: err}
		}
		return ref, err
	}
	return ref, nil
}
