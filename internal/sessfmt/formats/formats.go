// Package formats is the one list of session formats sessctl knows. Adding
// a format is a new package under internal/format and one line here.
package formats

import (
	"github.com/sessctl/sessctl/internal/format/agentcore"
	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/format/openclaw"
	"github.com/sessctl/sessctl/internal/format/opencode"
	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// All returns the formats in the order they are asked: arguments are
// claimed by the first format that owns them, and files sniffed by every
// format (the highest score wins; the first on a tie). getenv reads the
// environment (for default store locations); nil is os.Getenv.
func All(getenv func(string) string) []sessfmt.Format {
	return []sessfmt.Format{
		pi.Writing{Writers: piWriters},
		claude.Writing{Writers: claudeWriters},
		opencode.Format{Getenv: getenv},
		openclaw.Format{},
		agentcore.Format{},
	}
}

// New returns a registry of every format.
func New(getenv func(string) string) *sessfmt.Registry {
	return sessfmt.New(All(getenv)...)
}
