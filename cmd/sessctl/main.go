// Command sessctl inspects and repairs the session files of coding agents.
package main

import (
	"os"

	"github.com/sessctl/sessctl/internal/app"
	"github.com/sessctl/sessctl/internal/cmdutil"
)

func main() {
	// The index of a large session is most of the heap and lives until the
	// end: collect garbage at half the default headroom, which keeps peak
	// memory near the index size for about a tenth more CPU (docs/benchmarks.md).
	// GOGC in the environment still wins.
	cmdutil.GCPercent(50)
	stop := cmdutil.StartProfile() // only with $SESSCTL_CPUPROFILE set
	code := app.Main()
	stop()
	os.Exit(code)
}
