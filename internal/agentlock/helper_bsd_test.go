//go:build unix && !linux

package agentlock

import "fmt"

// holdForHelper: off Linux, omp's gate is the flock on the sidecar file
// (gate:<path> and flock:<path> are the same thing).
func holdForHelper(kind, arg string) error {
	switch kind {
	case "gate", "flock":
		return flockHold(arg)
	case "sleep":
		return nil
	}
	return fmt.Errorf("unknown helper kind %q", kind)
}
