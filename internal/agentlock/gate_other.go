//go:build unix && !linux

package agentlock

import "os"

// gate is one held omp OS gate: flock(2) on the persistent sidecar
// "<dir>/.<name>.lock.os", which omp creates on non-Linux Unix systems.
type gate struct{ file *os.File }

func tryGate(sidecar, name string) (*gate, bool, error) {
	f, held, err := flockSidecar(sidecar, true)
	if err != nil || held {
		return nil, held, err
	}
	return &gate{file: f}, false, nil
}

func (g *gate) release() {
	if g != nil {
		unflock(g.file)
		g.file = nil
	}
}

func probeGate(sidecar, name string) (bool, error) {
	f, held, err := flockSidecar(sidecar, false)
	if err != nil || held {
		return held, err
	}
	unflock(f)
	return false, nil
}
