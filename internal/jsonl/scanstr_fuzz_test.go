package jsonl

import (
	"bytes"
	"testing"
)

// FuzzScanString holds scanString (with GOEXPERIMENT=simd on amd64, the
// 32-byte AVX2 scan of scanstr_simd.go) equal to the portable
// scanStringSWAR: same end, escape flag and verdict, for the string
// starting at every quote of the input. In the default build the two are
// the same function and this only exercises it.
func FuzzScanString(f *testing.F) {
	f.Add([]byte(`"plain"`))
	f.Add([]byte(`"a\"b\\c\/d\be\ff\ng\rh\ti\u00e9\uD83D\uDE00 tail that is longer than thirty-two bytes"`))
	f.Add([]byte("\"0123456789abcdef0123456789abcdef0123456789\x1f\""))
	f.Add([]byte(`"0123456789abcdef0123456789abcde\"0123456789abcdef\q"`))
	f.Add([]byte(`"0123456789abcdef0123456789abcd\u12`))
	f.Add(bytes.Repeat([]byte(`"\\`), 40))
	f.Fuzz(func(t *testing.T, data []byte) {
		for i := 0; i < len(data); i++ {
			if data[i] != '"' {
				continue
			}
			e1, esc1, ok1 := scanString(data, i)
			e2, esc2, ok2 := scanStringSWAR(data, i)
			if ok1 != ok2 || (ok1 && (e1 != e2 || esc1 != esc2)) {
				t.Fatalf("at %d of %q: scanString = %d %v %v, scanStringSWAR = %d %v %v", i, data, e1, esc1, ok1, e2, esc2, ok2)
			}
		}
	})
}
