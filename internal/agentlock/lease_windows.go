package agentlock

// newLeaseProber returns probeGate: on Windows whether the named mutex
// "Global\" + GateName(lockPath) exists (opened, never created), plus a
// lockPath file's byte lock if the file exists.
func newLeaseProber() func(string) (bool, error) {
	return func(lockPath string) (bool, error) { return probeGate(lockPath, GateName(lockPath)) }
}

// takeLease creates the named mutex as omp does (nothing on disk) and locks
// a lockPath file if one exists.
func takeLease(lockPath string) (*gate, bool, error) {
	return tryGate(lockPath, GateName(lockPath))
}
