package jsonl

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rec is a copy of the fields of a Record that outlive Next.
type rec struct {
	Line    int
	Offset  int64
	Raw     string
	Newline bool
	Kind    Kind
	BOM     bool
	CRLF    bool
}

func readAll(t testing.TB, r io.Reader) ([]rec, error) {
	t.Helper()
	rd := NewReader(r)
	var out []rec
	for rd.Next() {
		x := rd.Record()
		out = append(out, rec{x.Line, x.Offset, string(x.Raw), x.Newline, x.Kind, x.BOM, x.CRLF})
	}
	return out, rd.Err()
}

// checkLayout asserts the invariants every record sequence must satisfy
// against the input it came from: consecutive line numbers, contiguous
// offsets, Raw equal to the input bytes at Offset, only the last record
// without newline, and the sum of the lengths equal to the input size.
func checkLayout(t *testing.T, input []byte, recs []rec) {
	t.Helper()
	var off int64
	for i, r := range recs {
		require.Equal(t, i+1, r.Line, "line number of record %d", i)
		require.Equal(t, off, r.Offset, "offset of line %d", r.Line)
		end := off + int64(len(r.Raw))
		require.LessOrEqual(t, end, int64(len(input)))
		require.True(t, string(input[off:end]) == r.Raw, "raw bytes of line %d", r.Line)
		if r.Newline {
			require.Equal(t, byte('\n'), input[end], "newline of line %d", r.Line)
			end++
		} else {
			require.Equal(t, len(recs)-1, i, "only the last record may lack a newline")
		}
		off = end
	}
	require.Equal(t, int64(len(input)), off, "sum of Len() equals input size")
}

func kinds(recs []rec) []Kind {
	out := make([]Kind, len(recs))
	for i, r := range recs {
		out[i] = r.Kind
	}
	return out
}

func TestReaderKinds(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		kinds   []Kind
		lastNL  bool // Newline of the last record
		checkFn func(t *testing.T, recs []rec)
	}{
		{name: "object", in: "{\"a\":1}\n", kinds: []Kind{Object}, lastNL: true},
		{name: "empty object", in: "{}\n", kinds: []Kind{Object}, lastNL: true},
		{name: "object with surrounding spaces", in: "  {\"a\":1}\t \n", kinds: []Kind{Object}, lastNL: true},
		{name: "blank lines", in: "\n \n\t\n", kinds: []Kind{Blank, Blank, Blank}, lastNL: true},
		{name: "blank without newline at end", in: "{}\n   ", kinds: []Kind{Object, Blank}},
		{name: "malformed garbage", in: "garbage\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "malformed missing value", in: "{\"a\":}\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "two objects glued", in: "{\"a\":1}{\"b\":2}\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "trailing garbage", in: "{\"a\":1}xyz\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "pretty printed object is malformed per line", in: "{\n\"a\": 1\n}\n", kinds: []Kind{Malformed, Malformed, Malformed}, lastNL: true},
		// Values fastjson's parser alone would accept but JSON.parse rejects.
		{name: "NaN", in: "{\"a\":NaN}\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "Infinity", in: "{\"a\":-Inf}\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "double dot number", in: "{\"a\":1.2.3}\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "leading plus", in: "{\"a\":+1}\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "leading zero", in: "{\"a\":01}\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "unknown escape", in: "{\"a\":\"\\q\"}\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "raw tab in string", in: "{\"a\":\"x\ty\"}\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "raw control char in key", in: "{\"a\x01\":1}\n", kinds: []Kind{Malformed}, lastNL: true},
		// fastjson.ValidateBytes accepts these (control byte before an escape).
		{name: "raw tab before an escape", in: "{\"a\":\"x\ty\\n\"}\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "raw control char before an escape", in: "{\"\":\"\x14\\b0000\"}\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "raw control char in an array string", in: "[\"\x01\\\"\"]\n", kinds: []Kind{Malformed}, lastNL: true},
		{name: "tabs outside strings are whitespace", in: "{\t\"a\":\t\"x\\n\"\t}\n", kinds: []Kind{Object}, lastNL: true},
		{name: "number 42", in: "42\n", kinds: []Kind{NonObject}, lastNL: true},
		{name: "null", in: "null\n", kinds: []Kind{NonObject}, lastNL: true},
		{name: "array", in: "[1]\n", kinds: []Kind{NonObject}, lastNL: true},
		{name: "string", in: "\"s\"\n", kinds: []Kind{NonObject}, lastNL: true},
		{name: "true", in: "true\n", kinds: []Kind{NonObject}, lastNL: true},
		{name: "non-object without newline", in: "{}\n42", kinds: []Kind{Object, NonObject}},
		{name: "NUL run line", in: "{}\n\x00\x00\x00\x00\n{}\n", kinds: []Kind{Object, NULRun, Object}, lastNL: true},
		{name: "zero-filled tail", in: "{\"a\":1}\n" + strings.Repeat("\x00", 4096), kinds: []Kind{Object, NULRun}},
		{name: "NULs before a valid object", in: "\x00\x00\x00{\"a\":1}\n", kinds: []Kind{NULRun}, lastNL: true},
		{name: "NULs then object without newline", in: "{}\n\x00\x00{\"id\":\"x\"}", kinds: []Kind{Object, NULRun}},
		{name: "torn tail", in: "{\"a\":1}\n{\"b\":\"hal", kinds: []Kind{Object, TornTail}},
		{name: "torn tail after garbage", in: "garbage\n{\"b\":", kinds: []Kind{Malformed, TornTail}},
		{name: "valid last line without newline", in: "{\"a\":1}\n{\"b\":2}", kinds: []Kind{Object, Object}},
		{name: "single object without newline", in: "{\"a\":1}", kinds: []Kind{Object}},
		{name: "malformed mid-file is not torn", in: "{\"b\":\n{}\n", kinds: []Kind{Malformed, Object}, lastNL: true},
		{name: "only newline", in: "\n", kinds: []Kind{Blank}, lastNL: true},
		{name: "crlf blank", in: "\r\n", kinds: []Kind{Blank}, lastNL: true, checkFn: func(t *testing.T, recs []rec) {
			assert.True(t, recs[0].CRLF)
		}},
		{
			name: "BOM on line 1", in: "\xEF\xBB\xBF{\"a\":1}\n{}\n", kinds: []Kind{Object, Object}, lastNL: true,
			checkFn: func(t *testing.T, recs []rec) {
				assert.True(t, recs[0].BOM)
				assert.Equal(t, "\xEF\xBB\xBF{\"a\":1}", recs[0].Raw, "Raw keeps the BOM")
				assert.False(t, recs[1].BOM)
			},
		},
		{
			name: "BOM on a later line is not stripped", in: "{}\n\xEF\xBB\xBF{\"a\":1}\n", kinds: []Kind{Object, Malformed}, lastNL: true,
			checkFn: func(t *testing.T, recs []rec) {
				assert.False(t, recs[1].BOM)
			},
		},
		{
			name: "BOM only", in: "\xEF\xBB\xBF\n{}\n", kinds: []Kind{Blank, Object}, lastNL: true,
			checkFn: func(t *testing.T, recs []rec) { assert.True(t, recs[0].BOM) },
		},
		{
			name: "CRLF", in: "{\"a\":1}\r\n{\"b\":2}\r\n", kinds: []Kind{Object, Object}, lastNL: true,
			checkFn: func(t *testing.T, recs []rec) {
				for _, r := range recs {
					assert.True(t, r.CRLF)
					assert.True(t, strings.HasSuffix(r.Raw, "\r"), "Raw keeps the \\r")
				}
			},
		},
		{
			name: "CR without LF at end is not CRLF", in: "{\"a\":1}\r", kinds: []Kind{Object},
			checkFn: func(t *testing.T, recs []rec) { assert.False(t, recs[0].CRLF) },
		},
		{
			name: "mixed file", in: "{\"type\":\"session\"}\n\ngarbage\n42\n\x00\x00\n{\"type\":\"message\"}\r\n{\"type\":",
			kinds: []Kind{Object, Blank, Malformed, NonObject, NULRun, Object, TornTail},
		},
		{
			name: "deeper than fastjson.MaxDepth is malformed", in: strings.Repeat("[", 400) + strings.Repeat("]", 400) + "\n",
			kinds: []Kind{Malformed}, lastNL: true,
		},
		{
			name: "deep nesting does not exhaust the stack", in: "{\"a\":" + strings.Repeat("[", 1<<20) + "\n",
			kinds: []Kind{Malformed}, lastNL: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := readAll(t, strings.NewReader(tc.in))
			require.NoError(t, err)
			checkLayout(t, []byte(tc.in), recs)
			assert.Equal(t, tc.kinds, kinds(recs))
			require.NotEmpty(t, recs)
			assert.Equal(t, tc.lastNL, recs[len(recs)-1].Newline)
			if tc.checkFn != nil {
				tc.checkFn(t, recs)
			}
			// Classify agrees with the reader for every line.
			for _, r := range recs {
				assert.Equal(t, r.Kind, Classify([]byte(r.Raw), r.Line == 1, r.Newline), "Classify line %d", r.Line)
			}
		})
	}
}

func TestReaderEmptyInput(t *testing.T) {
	recs, err := readAll(t, strings.NewReader(""))
	require.NoError(t, err)
	assert.Empty(t, recs)
}

func TestReaderOnlyNewline(t *testing.T) {
	recs, err := readAll(t, strings.NewReader("\n"))
	require.NoError(t, err)
	require.Equal(t, []rec{{Line: 1, Offset: 0, Raw: "", Newline: true, Kind: Blank}}, recs)
}

func TestReaderExactOffsets(t *testing.T) {
	in := "\xEF\xBB\xBF{\"type\":\"session\",\"id\":\"s\"}\n\n{\"id\":\"a\"}\r\nbad\n{\"id\":\"b\"}"
	recs, err := readAll(t, strings.NewReader(in))
	require.NoError(t, err)
	want := []rec{
		{Line: 1, Offset: 0, Raw: "\xEF\xBB\xBF{\"type\":\"session\",\"id\":\"s\"}", Newline: true, Kind: Object, BOM: true},
		{Line: 2, Offset: 31, Raw: "", Newline: true, Kind: Blank},
		{Line: 3, Offset: 32, Raw: "{\"id\":\"a\"}\r", Newline: true, Kind: Object, CRLF: true},
		{Line: 4, Offset: 44, Raw: "bad", Newline: true, Kind: Malformed},
		{Line: 5, Offset: 48, Raw: "{\"id\":\"b\"}", Newline: false, Kind: Object},
	}
	assert.Equal(t, want, recs)
	checkLayout(t, []byte(in), recs)
}

func TestRecordAccessors(t *testing.T) {
	in := "\xEF\xBB\xBF{\"id\":\"a\",\"n\":5,\"id\":\"b\",\"s\":\"x\\n\\u00e9\\\"\",\"\\u0070arentId\":\"p\",\"nul\":null}\r\n"
	rd := NewReader(strings.NewReader(in))
	require.True(t, rd.Next())
	r := rd.Record()
	require.Equal(t, Object, r.Kind)
	assert.Equal(t, "{\"id\":\"a\",\"n\":5,\"id\":\"b\",\"s\":\"x\\n\\u00e9\\\"\",\"\\u0070arentId\":\"p\",\"nul\":null}", string(r.Body()))
	assert.Equal(t, int64(len(in)), r.Len())

	id, ok := r.StrOK("id")
	assert.True(t, ok)
	assert.Equal(t, "b", id, "a duplicated key resolves to its last occurrence, as JSON.parse does")
	assert.Equal(t, "x\né\"", r.Str("s"), "escapes are decoded")
	assert.Equal(t, "p", r.Str("parentId"), "escaped keys match")
	_, ok = r.StrOK("n")
	assert.False(t, ok, "a number is not a string")
	_, ok = r.StrOK("nul")
	assert.False(t, ok, "null is not a string")
	_, ok = r.StrOK("missing")
	assert.False(t, ok)
	assert.False(t, rd.Next())

	var empty Record
	_, ok = empty.StrOK("id")
	assert.False(t, ok, "no value")
}

func TestHasControl(t *testing.T) {
	for n := 0; n < 40; n++ {
		for pos := -1; pos < n; pos++ {
			for _, c := range []byte{0, 0x09, 0x1f} {
				b := bytes.Repeat([]byte{' '}, n) // 0x20 itself is not a control byte
				if pos >= 0 {
					b[pos] = c
				}
				if got := hasControl(b); got != (pos >= 0) {
					t.Fatalf("hasControl(len %d, byte %#x at %d) = %v", n, c, pos, got)
				}
			}
		}
	}
	assert.False(t, hasControl([]byte("\x7f\xff\x80 ~!\"é日本語 plain text over eight bytes")))
}

func TestKindString(t *testing.T) {
	want := map[Kind]string{Object: "object", Blank: "blank", Malformed: "malformed", NonObject: "non-object",
		NULRun: "nul-run", TornTail: "torn-tail", 0: "", 99: "unknown"}
	for k, s := range want {
		assert.Equal(t, s, k.String())
	}
}

// fill returns n bytes of a JSON object line {"id":"<id>","p":"xxx..."} of
// exactly n bytes (n >= len(id)+15).
func fill(id string, n int, c byte) []byte {
	head := `{"id":"` + id + `","p":"`
	b := make([]byte, 0, n)
	b = append(b, head...)
	b = append(b, bytes.Repeat([]byte{c}, n-len(head)-2)...)
	b = append(b, '"', '}')
	return b
}

func TestReaderBufferBoundary(t *testing.T) {
	for _, delta := range []int{-3, -2, -1, 0, 1, 2, 3} {
		for _, prefix := range []int{0, 1, 17} {
			n := BufferSize + delta
			var in []byte
			if prefix > 0 {
				in = append(in, fill("pre", prefix+20, 'p')...)
				in = append(in, '\n')
			}
			in = append(in, fill("big", n, 'x')...)
			in = append(in, '\n')
			in = append(in, fill("next", n, 'y')...) // a second boundary line, no newline
			recs, err := readAll(t, bytes.NewReader(in))
			require.NoError(t, err)
			checkLayout(t, in, recs)
			last := recs[len(recs)-1]
			require.Len(t, last.Raw, n, "delta %d prefix %d", delta, prefix)
			require.Len(t, recs[len(recs)-2].Raw, n)
			for _, r := range recs {
				require.Equal(t, Object, r.Kind, "delta %d prefix %d line %d", delta, prefix, r.Line)
			}
			assert.False(t, last.Newline)
		}
	}
}

func TestReaderManyLinesAcrossBoundaries(t *testing.T) {
	// Lines of varying length so that line ends fall at many positions
	// relative to the 1 MiB buffer, including lines longer than it.
	var in []byte
	sizes := []int{}
	for i := 0; len(in) < 5*BufferSize; i++ {
		n := 20 + (i*7919)%70000
		if i%50 == 49 {
			n = BufferSize + i
		}
		sizes = append(sizes, n)
		in = append(in, fill("x", n, byte('a'+i%26))...)
		in = append(in, '\n')
	}
	recs, err := readAll(t, bytes.NewReader(in))
	require.NoError(t, err)
	checkLayout(t, in, recs)
	require.Len(t, recs, len(sizes))
	for i, r := range recs {
		require.Len(t, r.Raw, sizes[i])
		require.Equal(t, Object, r.Kind)
	}
}

func TestReader50MBLine(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB line")
	}
	const n = 50 << 20
	big := fill("huge", n, 'z')
	in := append([]byte("{\"id\":\"first\"}\n"), big...)
	in = append(in, '\n')
	in = append(in, "{\"id\":\"after\"}\n"...)
	in = append(in, big...) // a second 50 MB line, last, without newline

	rd := NewReader(bytes.NewReader(in))
	var got []struct {
		id   string
		len  int64
		kind Kind
		off  int64
	}
	for rd.Next() {
		r := rd.Record()
		got = append(got, struct {
			id   string
			len  int64
			kind Kind
			off  int64
		}{r.Str("id"), r.Len(), r.Kind, r.Offset})
	}
	require.NoError(t, rd.Err())
	require.Len(t, got, 4)
	assert.Equal(t, "huge", got[1].id)
	assert.Equal(t, int64(n+1), got[1].len, "exact length incl. newline")
	assert.Equal(t, Object, got[1].kind)
	assert.Equal(t, int64(15), got[1].off)
	assert.Equal(t, "after", got[2].id)
	assert.Equal(t, int64(15+n+1), got[2].off)
	assert.Equal(t, int64(n), got[3].len, "last line without newline")
	assert.Equal(t, Object, got[3].kind)
	assert.Equal(t, int64(len(in)), got[3].off+got[3].len)
}

func TestReaderOneByteAtATime(t *testing.T) {
	in := []byte("{\"a\":1}\r\n\n" + string(fill("q", 300, 'q')) + "\nnull\n{\"b\":")
	want, err := readAll(t, bytes.NewReader(in))
	require.NoError(t, err)
	got, err := readAll(t, iotest.OneByteReader(bytes.NewReader(in)))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	got, err = readAll(t, iotest.DataErrReader(bytes.NewReader(in)))
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

func TestReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("{\"a\":1}\n{\"b\""), iotest.ErrReader(boom))
	recs, err := readAll(t, r)
	require.ErrorIs(t, err, boom)
	require.Len(t, recs, 1, "the partial line before the error is not reported as a record")
	assert.Equal(t, Object, recs[0].Kind)
}

func TestNewReaderAt(t *testing.T) {
	rd := NewReaderAt(strings.NewReader("{}\n\xEF\xBB\xBF{}\n"), 1000, 7)
	require.True(t, rd.Next())
	assert.Equal(t, 7, rd.Record().Line)
	assert.Equal(t, int64(1000), rd.Record().Offset)
	require.True(t, rd.Next())
	assert.Equal(t, 8, rd.Record().Line)
	assert.Equal(t, int64(1003), rd.Record().Offset)
	assert.False(t, rd.Record().BOM, "a BOM is only recognised on line 1")
	assert.Equal(t, Malformed, rd.Record().Kind)
}

func TestReadLineAtRoundTrip(t *testing.T) {
	var in []byte
	in = append(in, "\xEF\xBB\xBF{\"type\":\"session\"}\n\n{\"a\":1}\r\nbad\n\x00\x00\n"...)
	in = append(in, fill("long", BufferSize+5, 'l')...)
	in = append(in, "\n{\"torn\":"...)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(path, in, 0o600))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()

	recs, err := readAll(t, f)
	require.NoError(t, err)
	checkLayout(t, in, recs)
	rd := NewReader(bytes.NewReader(in))
	for rd.Next() {
		r := rd.Record()
		got, err := ReadLineAt(f, r.Offset, r.Len())
		require.NoError(t, err, "line %d", r.Line)
		require.True(t, bytes.Equal(r.Raw, got), "line %d round trip", r.Line)
		assert.Equal(t, r.Kind, Classify(got, r.Line == 1, r.Newline))
	}

	// A file shorter than the index says is an error, not zero padding.
	_, err = ReadLineAt(f, int64(len(in))-3, 10)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	_, err = ReadLineAt(f, int64(len(in))+5, 1)
	require.Error(t, err)
	got, err := ReadLineAt(f, 0, 0)
	require.NoError(t, err)
	assert.Empty(t, got)
}
