package jsonl

import (
	"bytes"
	"math/rand/v2"
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

// TestScanStringRandom compares scanString with scanStringSWAR on strings of
// 1–300 bytes drawn from an alphabet dense in quotes, backslashes, escape
// letters, hex digits and control bytes, so that the 64-byte steps of the
// AVX2 scan meet backslash runs across step boundaries, \u escapes cut by
// them, and escaped quotes (meaningful with GOEXPERIMENT=simd).
func TestScanStringRandom(t *testing.T) {
	// dense: strings mostly end (or fail) early; sparse: long valid strings
	// whose backslash runs and escapes fall anywhere in the 64-byte steps.
	dense := []byte("aaaaaaaaaaaaaaaa\"\\\\\\nu0fF\x01\x1f \x7f\xe9/")
	sparse := []byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaannnuuu0fFb \xe9/")
	validEscapes := []string{`\\`, `\\\\`, `\\\\\\`, `\n`, `\"`, `\\\"`, `\/`, `\u00e9`, `\uD83D\uDE00`, `\t`}
	invalid := []string{`\q`, `\u12`, `\u00G0`, "\x01", `\`}
	r := rand.New(rand.NewPCG(14, 3))
	buf := make([]byte, 0, 320)
	long := 0
	for n := 0; n < 200000; n++ {
		buf = append(buf[:0], '"')
		size := 1 + r.IntN(300)
		for len(buf) <= size {
			if n%2 == 0 {
				buf = append(buf, dense[r.IntN(len(dense))])
				continue
			}
			switch k := r.IntN(200); {
			case k < 12: // a valid escape, or a run of escaped backslashes
				buf = append(buf, validEscapes[r.IntN(len(validEscapes))]...)
			case k == 12:
				buf = append(buf, '"')
			case k == 13: // rarely, something invalid
				buf = append(buf, invalid[r.IntN(len(invalid))]...)
			default:
				buf = append(buf, sparse[r.IntN(len(sparse))])
			}
		}
		buf = append(buf, '"')
		e1, esc1, ok1 := scanString(buf, 0)
		e2, esc2, ok2 := scanStringSWAR(buf, 0)
		if ok1 != ok2 || (ok1 && (e1 != e2 || esc1 != esc2)) {
			t.Fatalf("%q: scanString = %d %v %v, scanStringSWAR = %d %v %v", buf, e1, esc1, ok1, e2, esc2, ok2)
		}
		if ok1 && e1 > 64 && esc1 {
			long++
		}
	}
	if long < 10000 {
		t.Fatalf("only %d valid strings over 64 bytes with escapes", long)
	}
	t.Logf("%d valid strings over 64 bytes with escapes", long)
}
