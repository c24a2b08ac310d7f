//go:build !unix

package jsonl

// processCPU is not measured on this platform (0 disables the metric).
func processCPU() float64 { return 0 }
