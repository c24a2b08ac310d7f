package search

import "golang.org/x/sys/cpu"

// pairAVX2 scans b 32 positions a step with AVX2 (pairscan_amd64.s) while
// a 33-byte window fits; idx is the first hit or -1, done where it stopped.
//
//go:noescape
func pairAVX2(b []byte, c0, o0, c1, o1 byte) (idx, done int)

var hasAVX2 = cpu.X86.HasAVX2

// indexPairOr is indexPairOrSWAR, with AVX2 when the processor has it.
func indexPairOr(b []byte, c0, o0, c1, o1 byte) int {
	if !hasAVX2 || len(b) < 33 {
		return indexPairOrSWAR(b, c0, o0, c1, o1)
	}
	i, done := pairAVX2(b, c0, o0, c1, o1)
	if i >= 0 {
		return i
	}
	if j := indexPairOrSWAR(b[done:], c0, o0, c1, o1); j >= 0 {
		return done + j
	}
	return -1
}
