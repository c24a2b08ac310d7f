//go:build unix

package jsonl

import "syscall"

// processCPU returns the CPU time (user + system) the process has used, in
// seconds. Benchmarks report throughput per CPU second next to wall-clock
// MB/s because the build machines are shared: CPU time is far less
// sensitive to other processes competing for the cores.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
