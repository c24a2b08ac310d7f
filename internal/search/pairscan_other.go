//go:build !amd64

package search

// indexPairOr is indexPairOrSWAR (no vector version on this architecture).
func indexPairOr(b []byte, c0, o0, c1, o1 byte) int {
	return indexPairOrSWAR(b, c0, o0, c1, o1)
}
