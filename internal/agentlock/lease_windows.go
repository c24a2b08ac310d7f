package agentlock

// takeLease creates the named mutex as omp does (nothing on disk) and locks
// a lockPath file if one exists.
func takeLease(lockPath string) (*gate, bool, error) {
	return tryGate(lockPath, GateName(lockPath))
}
