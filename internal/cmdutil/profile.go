package cmdutil

import (
	"os"
	"runtime/pprof"
)

// ProfileEnv names the file a CPU profile of the whole run is written to
// when set (a diagnostic for benchmarks; bench/pgo.sh uses it to make
// cmd/sessctl/default.pgo, the profile the Go compiler optimises with).
const ProfileEnv = "SESSCTL_CPUPROFILE"

// StartProfile starts a CPU profile into the file $SESSCTL_CPUPROFILE names
// and returns the function that ends it; without it, or when the file
// cannot be made, it does nothing (a profile never changes what the
// command does or prints).
func StartProfile() (stop func()) {
	path := os.Getenv(ProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		return func() {}
	}
	if pprof.StartCPUProfile(f) != nil {
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
