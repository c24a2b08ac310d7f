package jsonl

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// refString is the definition the string scans implement, for the string
// starting at b[i] == '"': it ends at the first quote not escaped by a
// backslash (each backslash escapes the byte after it), and it is valid
// iff encoding/json accepts it (as JSON.parse: no raw byte below 0x20,
// only \" \\ \/ \b \f \n \r \t \uXXXX escapes, any other byte kept, invalid
// UTF-8 included). esc: it holds a backslash.
func refString(b []byte, i int) (end int, esc, ok bool) {
	j := i + 1
	for j < len(b) && b[j] != '"' {
		if b[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(b) {
		return len(b), false, false
	}
	s := b[i : j+1]
	return j + 1, bytes.IndexByte(s, '\\') >= 0, json.Valid(s)
}

// stringScans are the implementations held equal to refString: the
// dispatching scanString (inline first word, then assembly or SWAR), the
// portable scanStringSWAR and scanStringLong, which is the AVX2 assembly
// scan where the processor has it and the buffer is 64 bytes or longer
// (checkScans pads the input for it).
var stringScans = []struct {
	name string
	fn   func(b []byte, i int) (int, bool, bool)
	asm  bool
}{
	{"scanString", scanString, false},
	{"scanStringSWAR", scanStringSWAR, false},
	{"scanStringLong", scanStringLong, true},
}

// checkScans compares every string scan with refString for the string
// starting at b[i]. The assembly scan is run on b as it is when b is long
// enough, and always on b behind prefixes of each length in pads (at least
// as many bytes as make it 64 bytes long), so that the string keeps its
// place relative to the end of the buffer, where the scan's last window is.
func checkScans(t *testing.T, b []byte, i int, pads ...int) {
	t.Helper()
	e0, esc0, ok0 := refString(b, i)
	try := func(name string, fn func([]byte, int) (int, bool, bool), buf []byte, at, shift int) {
		e, esc, ok := fn(buf, at)
		if ok != ok0 || (ok && (e-shift != e0 || esc != esc0)) {
			t.Fatalf("%s at %d of %q (prefix %d): end %d esc %v ok %v, want %d %v %v", name, i, b, shift, e-shift, esc, ok, e0, esc0, ok0)
		}
	}
	if len(pads) == 0 {
		pads = []int{0}
	}
	var buf []byte
	for _, s := range stringScans {
		if s.asm && !hasAVX2 {
			continue
		}
		if !s.asm || len(b) >= 64 {
			try(s.name, s.fn, b, i, 0)
		}
		for _, pad := range pads {
			if !s.asm && pad == 0 {
				continue
			}
			p := max(pad, 64-len(b))
			buf = append(append(buf[:0], make([]byte, p)...), b...)
			for k := range p {
				buf[k] = '"'
			}
			try(s.name, s.fn, buf[:len(buf):len(buf)], i+p, p)
		}
	}
}

// FuzzScanString holds every string scan (the AVX2 assembly of
// scanstr_amd64.s where the processor has it, the portable SWAR scan, the
// dispatcher) equal to refString, i.e. to encoding/json, for the string
// starting at every quote of the input, with the input behind prefixes of
// every length 0–63 (every offset of the string in the scan's windows
// relative to the start of the buffer) and cut after each of its last 64
// bytes (strings running into the end of the buffer at every offset of
// the last window).
func FuzzScanString(f *testing.F) {
	allPads := make([]int, 64)
	for k := range allPads {
		allPads[k] = k
	}
	f.Add([]byte(`"plain"`))
	f.Add([]byte(`"a\"b\\c\/d\be\ff\ng\rh\ti\u00e9\uD83D\uDE00 tail that is longer than thirty-two bytes"`))
	f.Add([]byte("\"0123456789abcdef0123456789abcdef0123456789\x1f\""))
	f.Add([]byte(`"0123456789abcdef0123456789abcde\"0123456789abcdef\q"`))
	f.Add([]byte(`"0123456789abcdef0123456789abcd\u12`))
	f.Add(bytes.Repeat([]byte(`"\\`), 40))
	f.Add([]byte(`"` + string(bytes.Repeat([]byte(`\\`), 40)) + `\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\u00e9"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			data = data[:512]
		}
		for i := 0; i < len(data); i++ {
			if data[i] != '"' {
				continue
			}
			checkScans(t, data, i, allPads...)
			for cut := max(i+1, len(data)-64); cut < len(data); cut++ {
				checkScans(t, data[:cut:cut], i)
			}
		}
	})
}

// TestScanStringRandom compares the string scans with refString on strings
// of 1–300 bytes drawn from an alphabet dense in quotes, backslashes,
// escape letters, hex digits and control bytes, so that the 64-byte steps
// of the AVX2 scan meet backslash runs across step boundaries, \u escapes
// cut by them, and escaped quotes.
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
	for n := 0; n < 100000; n++ {
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
		// Also the string followed by a few bytes, and cut short.
		checkScans(t, buf, 0)
		checkScans(t, append(buf, ',', '"'), 0)
		checkScans(t, buf[:len(buf)-1], 0)
		if _, esc, ok := refString(buf, 0); ok && len(buf) > 64 && esc {
			long++
		}
	}
	if long < 10000 {
		t.Fatalf("only %d valid strings over 64 bytes with escapes", long)
	}
	t.Logf("%d valid strings over 64 bytes with escapes", long)
}

// TestScanStringSteps places one byte of interest, or a backslash and the
// byte it escapes, at every position of strings of 1–140 bytes, the
// string ending at the end of the buffer or followed by one byte and
// behind prefixes of several lengths: every case lands on both sides of
// each 32- and 64-byte boundary of the assembly scan's steps and of its
// last window.
func TestScanStringSteps(t *testing.T) {
	interesting := []byte{0x00, 0x01, 0x1f, 0x20, '"', '/', 'b', 'n', 'u', 'q', '\\', 0x7f, 0x80, 0xe9, 0xff}
	buf := make([]byte, 0, 300)
	n := 0
	for length := 1; length <= 140; length++ {
		for p := 0; p < length; p++ {
			for _, c1 := range interesting {
				for _, c2 := range []byte{0, '\\', '"', 'n', 'u', 'x'} {
					buf = append(buf[:0], '"')
					for k := 0; k < length; k++ {
						buf = append(buf, 'a'+byte(k%26))
					}
					buf[1+p] = c1
					if c2 != 0 {
						if p+1 >= length {
							continue
						}
						buf[1+p] = '\\'
						buf[2+p] = c1
						if p+2 < length {
							buf[3+p] = c2
						}
					}
					buf = append(buf, '"')
					checkScans(t, buf, 0)
					checkScans(t, append(buf, '}'), 0, 17)
					n++
				}
			}
		}
	}
	t.Logf("%d strings", n)
}
