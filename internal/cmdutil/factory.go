package cmdutil

import (
	"github.com/sessctl/sessctl/internal/iostreams"
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
}
