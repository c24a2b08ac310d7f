package cmdutil

import (
	"errors"

	"github.com/sessctl/sessctl/internal/iostreams"
	"github.com/sessctl/sessctl/internal/sessfmt"
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
	// AllSessions lists every session file and store for --all (nil:
	// discovery; see AllSessionPaths in args.go).
	AllSessions func() ([]string, error)
	// Registry is the one registry of session formats: every command opens
	// sessions through it (see OpenSession).
	Registry *sessfmt.Registry
}

// OpenSession opens the session arg names through the registry (a path, a
// "<store>#<id>" reference, a session id or a unique id prefix). An
// ambiguous prefix, an unknown --leaf and an argument naming nothing in an
// existing store are usage errors (exit 2).
func (f *Factory) OpenSession(arg string, opts sessfmt.OpenOptions) (sessfmt.Session, error) {
	if f.Registry == nil {
		return nil, errors.New("internal error: no format registry on the factory")
	}
	s, err := f.Registry.Open(arg, opts)
	if err != nil {
		var amb *sessfmt.AmbiguousError
		if errors.As(err, &amb) {
			return nil, &UsageError{Err: err}
		}
		return nil, UsageIf(err)
	}
	return s, nil
}

// Resolve turns a session argument into a reference through the registry
// without opening it (a path, a "<store>#<id>" reference, a session id or a
// unique id prefix); an ambiguous prefix is a usage error (exit 2).
func (f *Factory) Resolve(arg string) (sessfmt.Ref, error) {
	if f.Registry == nil {
		return sessfmt.Ref{}, errors.New("internal error: no format registry on the factory")
	}
	ref, err := f.Registry.Resolve(arg)
	var amb *sessfmt.AmbiguousError
	if errors.As(err, &amb) {
		return ref, &UsageError{Err: err}
	}
	return ref, err
}

// UsageIf returns err as a usage error (exit 2) when it is one of the
// registry's usage errors (an unknown --leaf, an argument naming nothing in
// a store); other errors are returned as they are.
func UsageIf(err error) error {
	var le *sessfmt.LeafError
	var ae *sessfmt.ArgError
	if err != nil && (errors.As(err, &le) || errors.As(err, &ae)) {
		return &UsageError{Err: err}
	}
	return err
}
