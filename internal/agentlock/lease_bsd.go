//go:build unix && !linux

package agentlock

// newLeaseProber returns probeGate: on Unix systems other than Linux omp's
// native FileLock is flock(2) on the lock path itself; a missing file is a
// free lock and is never created.
func newLeaseProber() func(string) (bool, error) {
	return func(lockPath string) (bool, error) { return probeGate(lockPath, GateName(lockPath)) }
}

// takeLease flocks lockPath if that file exists. It never creates it (the
// owners directory is omp's, and on a missing file no omp holds the lock);
// (nil, false, nil) then means free and nothing held.
func takeLease(lockPath string) (*gate, bool, error) {
	f, held, err := flockSidecar(lockPath, false)
	if err != nil || held || f == nil {
		return nil, held, err
	}
	return &gate{file: f}, false, nil
}
