//go:build unix && !linux

package agentlock

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
