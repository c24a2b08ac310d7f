package blob

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"
)

// scanOracle returns the hashes of every ref in b, by regexp. Matches may
// overlap: the last digit of one ref can be the "b" that starts the next
// ("blob:sha256:<63 digits>blob:sha256:<64 digits>" holds two refs), so
// the search restarts one byte after each match start.
var scanRE = regexp.MustCompile(`blob:sha256:([a-f0-9]{64})(?:[^a-f0-9]|$)`)

func scanOracle(b []byte) []Hash {
	var out []Hash
	for off := 0; off < len(b); {
		m := scanRE.FindSubmatchIndex(b[off:])
		if m == nil {
			break
		}
		h, ok := decodeHex(b[off+m[2] : off+m[3]])
		if !ok {
			panic("oracle matched bad hex")
		}
		out = append(out, h)
		off += m[0] + 1
	}
	return out
}

func collect(t testing.TB, r interface{ Read([]byte) (int, error) }, bufSize int) []Hash {
	t.Helper()
	var out []Hash
	if err := scanBuf(r, make([]byte, bufSize), func(h Hash) { out = append(out, h) }); err != nil {
		t.Fatal(err)
	}
	return out
}

func hashOf(s string) Hash { return Hash(sha256.Sum256([]byte(s))) }

// hashOf0b is the hash whose hex is the first 63 digits of hx then "b".
func hashOf0b(hx string) Hash {
	h, err := ParseHex(hx[:63] + "b")
	if err != nil {
		panic(err)
	}
	return h
}

func TestScanCases(t *testing.T) {
	a, b := hashOf("a"), hashOf("b")
	A, B := a.String(), b.String()
	cases := []struct {
		name string
		in   string
		want []Hash
	}{
		{"json value", `{"type":"image","data":"blob:sha256:` + A + `","mimeType":"image/png"}`, []Hash{a}},
		{"at EOF", "blob:sha256:" + A, []Hash{a}},
		{"two adjacent", `"blob:sha256:` + A + `","blob:sha256:` + B + `"`, []Hash{a, b}},
		{"glued to previous text", "xxblob:sha256:" + A + " ", []Hash{a}},
		{"repeated prefix", "blob:sha256:blob:sha256:" + A + "\n", []Hash{a}},
		{"last digit starts the next ref", "blob:sha256:" + A[:63] + "blob:sha256:" + B, []Hash{hashOf0b(A), b}},
		{"65 digits", "blob:sha256:" + A + "0\n", nil},
		{"63 digits", "blob:sha256:" + A[:63] + "\"", nil},
		{"upper-case digit inside", "blob:sha256:" + A[:10] + "F" + A[11:] + "\"", nil},
		{"upper-case after (non-hex boundary)", "blob:sha256:" + A + "G", []Hash{a}},
		{"upper-case hex after is a boundary", "blob:sha256:" + A + "A", []Hash{a}},
		{"traversal", `"blob:sha256:../../etc/passwd"`, nil},
		{"upper prefix", "BLOB:SHA256:" + A, nil},
		{"escaped in JSON is not seen", `"\u0062lob:sha256:` + A + `"`, nil},
		{"empty", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, bs := range []int{RefLen + 2, 100, 4096, scanBufSize} {
				got := collect(t, strings.NewReader(c.in), bs)
				if fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Fatalf("buf %d: got %v want %v", bs, got, c.want)
				}
				if o := scanOracle([]byte(c.in)); fmt.Sprint(o) != fmt.Sprint(c.want) {
					t.Fatalf("oracle disagrees with the table: %v", o)
				}
			}
		})
	}
}

// randomSession builds JSONL-ish text with refs (valid and broken) at random
// places, including very long lines.
func randomSession(r *rand.Rand, size int, pool []Hash) []byte {
	var b bytes.Buffer
	for b.Len() < size {
		switch r.IntN(8) {
		case 0:
			h := pool[r.IntN(len(pool))]
			fmt.Fprintf(&b, `{"type":"image","data":"%s","mimeType":"image/png"}`+"\n", h.Ref())
		case 1:
			h := pool[r.IntN(len(pool))].String()
			cut := r.IntN(64)
			b.WriteString("blob:sha256:" + h[:cut] + "\"")
		case 2:
			b.WriteString(strings.Repeat("b", r.IntN(30)) + "blob:sha")
		case 3:
			const alphabet = "abcdef0123456789blo:sh256\" "
			n := r.IntN(200000)
			b.WriteString(`{"text":"`)
			for i := 0; i < n; i++ {
				b.WriteByte(alphabet[r.IntN(len(alphabet))])
			}
			b.WriteString("\"}\n")
		case 4:
			h := pool[r.IntN(len(pool))]
			b.WriteString(h.Ref() + "abc") // hex continues: not a ref
		default:
			fmt.Fprintf(&b, `{"type":"message","id":"%08x","content":"hello world"}`+"\n", r.Uint32())
		}
	}
	return b.Bytes()
}

func TestScanRandomAgainstOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var pool []Hash
	for i := 0; i < 20; i++ {
		pool = append(pool, hashOf(fmt.Sprint(i)))
	}
	for iter := 0; iter < 20; iter++ {
		in := randomSession(r, 300000+r.IntN(300000), pool)
		want := scanOracle(in)
		if len(want) == 0 {
			t.Fatal("generator produced no refs")
		}
		for _, bs := range []int{RefLen + 2, 77 + r.IntN(500), 65536, scanBufSize} {
			got := collect(t, bytes.NewReader(in), bs)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("iter %d buf %d: %d refs, oracle %d", iter, bs, len(got), len(want))
			}
		}
		// Tiny reads exercise the fill loop.
		if got := collect(t, iotest.OneByteReader(bytes.NewReader(in[:20000])), 200); fmt.Sprint(got) != fmt.Sprint(scanOracle(in[:20000])) {
			t.Fatalf("one-byte reader disagrees")
		}
	}
}

// Every position of a ref relative to a chunk boundary.
func TestScanEveryBoundaryOffset(t *testing.T) {
	h := hashOf("x")
	for bs := RefLen + 2; bs < 3*RefLen; bs++ {
		for pad := 0; pad < 2*bs; pad++ {
			in := strings.Repeat("-", pad) + h.Ref() + "\"" + strings.Repeat("b", pad%7)
			got := collect(t, strings.NewReader(in), bs)
			if len(got) != 1 || got[0] != h {
				t.Fatalf("buf %d pad %d: got %v", bs, pad, got)
			}
			// and the same ref with one more hex digit must not match
			in2 := strings.Repeat("-", pad) + h.Ref() + "0"
			if got := collect(t, strings.NewReader(in2), bs); len(got) != 0 {
				t.Fatalf("buf %d pad %d: 65 digits matched", bs, pad)
			}
		}
	}
}

func TestScanLongLine(t *testing.T) {
	h := hashOf("long")
	// A 40 MB single line with the ref in the middle and at the end.
	big := bytes.Repeat([]byte("abcdefb0123456789:"), 40<<20/18)
	in := append(append(append([]byte{}, big...), h.Ref()+"\""...), big...)
	in = append(in, h.Ref()...)
	n := 0
	if err := Scan(bytes.NewReader(in), func(g Hash) {
		if g != h {
			t.Fatalf("wrong hash %v", g)
		}
		n++
	}); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("found %d refs, want 2", n)
	}
}

func TestScanReadError(t *testing.T) {
	boom := errors.New("boom")
	err := Scan(iotest.ErrReader(boom), func(Hash) {})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
}

func gzipBytes(t testing.TB, parts ...[]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range parts { // one gzip member per part
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write(p); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func scanFileHashes(t *testing.T, path string) ([]Hash, error) {
	t.Helper()
	var out []Hash
	err := ScanFile(path, func(h Hash) { out = append(out, h) })
	return out, err
}

func TestScanFile(t *testing.T) {
	dir := t.TempDir()
	a, b := hashOf("a"), hashOf("b")
	plain := []byte(`{"data":"` + a.Ref() + `"}` + "\n")
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("plain", func(t *testing.T) {
		got, err := scanFileHashes(t, write("s.jsonl", plain))
		if err != nil || fmt.Sprint(got) != fmt.Sprint([]Hash{a}) {
			t.Fatalf("%v %v", got, err)
		}
	})
	t.Run("gzip multi-member, name without .gz", func(t *testing.T) {
		gz := gzipBytes(t, plain, []byte(`{"x":"`+b.Ref()+`"}`))
		got, err := scanFileHashes(t, write("s.jsonl.bak", gz))
		if err != nil || fmt.Sprint(got) != fmt.Sprint([]Hash{a, b}) {
			t.Fatalf("%v %v", got, err)
		}
	})
	t.Run("a ref is not found in the compressed bytes", func(t *testing.T) {
		// Stored (level 0) gzip would contain the ref literally; the
		// decompressed stream must be scanned exactly once.
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.NoCompression)
		zw.Write(plain)
		zw.Close()
		got, err := scanFileHashes(t, write("stored.jsonl.gz", buf.Bytes()))
		if err != nil || len(got) != 1 {
			t.Fatalf("%v %v", got, err)
		}
	})
	t.Run("truncated gzip is an error", func(t *testing.T) {
		gz := gzipBytes(t, bytes.Repeat(plain, 1000))
		_, err := scanFileHashes(t, write("t.jsonl.gz", gz[:len(gz)/2]))
		if err == nil {
			t.Fatal("no error for truncated gzip")
		}
	})
	t.Run("one byte file", func(t *testing.T) {
		got, err := scanFileHashes(t, write("one.jsonl", []byte{0x1f}))
		if err != nil || len(got) != 0 {
			t.Fatalf("%v %v", got, err)
		}
	})
	t.Run("directory is an error", func(t *testing.T) {
		p := filepath.Join(dir, "d.jsonl")
		os.Mkdir(p, 0o755)
		if _, err := scanFileHashes(t, p); err == nil {
			t.Fatal("no error for a directory")
		}
	})
	t.Run("missing is an error", func(t *testing.T) {
		if _, err := scanFileHashes(t, filepath.Join(dir, "nope.jsonl")); err == nil {
			t.Fatal("no error")
		}
	})
}

func FuzzScan(f *testing.F) {
	h := hashOf("seed")
	f.Add([]byte(`{"data":"`+h.Ref()+`"}`), uint16(0))
	f.Add([]byte("blob:sha256:"+h.String()+"0"), uint16(3))
	f.Add([]byte("blob:sha256:blob:sha256:"+h.String()), uint16(10))
	f.Add([]byte("blob:sha256:../../etc/passwd"), uint16(1))
	f.Add([]byte(strings.Repeat("b", 100)+h.Ref()+"A"), uint16(200))
	f.Fuzz(func(t *testing.T, in []byte, bs uint16) {
		size := RefLen + 2 + int(bs)%300
		var got []Hash
		var err error
		if bs%2 == 0 {
			err = scanBuf(bytes.NewReader(in), make([]byte, size), func(h Hash) { got = append(got, h) })
		} else {
			err = scanBuf(iotest.HalfReader(bytes.NewReader(in)), make([]byte, size), func(h Hash) { got = append(got, h) })
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range got {
			ref := []byte(h.Ref())
			found := false
			for off := 0; ; {
				i := bytes.Index(in[off:], ref)
				if i < 0 {
					break
				}
				end := off + i + len(ref)
				if end == len(in) || !isLowerHex(in[end]) {
					found = true
					break
				}
				off += i + 1
			}
			if !found {
				t.Fatalf("reported %s which is not in the input at a boundary", h)
			}
		}
		if want := scanOracle(in); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("buf %d: got %v, oracle %v", size, got, want)
		}
	})
}
