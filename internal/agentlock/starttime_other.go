//go:build !linux

package agentlock

// ProcessStartTime is only available on Linux (OpenClaw records it only
// there); elsewhere it reports false and pid reuse is not detected.
func ProcessStartTime(pid int) (uint64, bool) { return 0, false }
