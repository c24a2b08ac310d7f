package agentlock

import (
	"fmt"
	"os"
	"path/filepath"
)

func holdForHelper(kind, arg string) error {
	switch kind {
	case "gate":
		_, held, err := bindAbstract(arg)
		if err == nil && held {
			err = fmt.Errorf("gate %s is held already", arg)
		}
		return err
	case "lease":
		// omp >= 18.5's ownership lease for session id arg, named the way
		// omp names it from its own environment: pi-utils' FileLock on
		// path.resolve(<home>/<PI_CONFIG_DIR or .omp>/run/session-owners/<id>)
		// + ".lock", i.e. the native lock's abstract socket for that path
		// (TestNativeNameVectors ties GateName to the native addon).
		cfg := os.Getenv("PI_CONFIG_DIR")
		if cfg == "" {
			cfg = ".omp"
		}
		p := filepath.Join(os.Getenv("HOME"), cfg, "run", "session-owners", arg) + ".lock"
		return holdForHelper("gate", GateName(p))
	case "flock":
		return flockHold(arg)
	case "sleep":
		return nil
	}
	return fmt.Errorf("unknown helper kind %q", kind)
}
