//go:build unix && !linux

package agentlock

// probeLease reports whether omp's native FileLock for lockPath is held:
// on Unix systems other than Linux that is flock(2) on lockPath itself.
// A missing file is a free lock; the file is never created.
func probeLease(lockPath string) (bool, error) {
	return probeGate(lockPath, GateName(lockPath))
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
