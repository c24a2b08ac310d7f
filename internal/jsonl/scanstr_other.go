//go:build !(goexperiment.simd && amd64)

package jsonl

// scanString validates the string starting at b[i] == '"' (see
// scanStringSWAR; scanstr_simd.go has the GOEXPERIMENT=simd version).
func scanString(b []byte, i int) (end int, esc, ok bool) { return scanStringSWAR(b, i) }
