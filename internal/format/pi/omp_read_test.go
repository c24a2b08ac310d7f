package pi

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/stretchr/testify/require"
)

type scanned struct {
	Kind jsonl.Kind
	Line int
	Text string // Body of the record
}

func scanAll(t testing.TB, in string) []scanned {
	sc := newValueScanner(strings.NewReader(in))
	var out []scanned
	var off int64
	for sc.Next() {
		r := sc.Record()
		if r.Offset != off {
			t.Fatalf("record at %d, want %d (records must tile the input): %q", r.Offset, off, in)
		}
		off += r.Len()
		if r.Kind == jsonl.Object || r.Kind == jsonl.NonObject {
			if !json.Valid(r.Body()) {
				t.Fatalf("value record is not valid JSON: %q", r.Body())
			}
			if (r.Kind == jsonl.Object) != (r.Value != nil) {
				t.Fatalf("Object records carry their value: %+v", r)
			}
		}
		out = append(out, scanned{r.Kind, r.Line, string(r.Body())})
	}
	if sc.Err() != nil {
		t.Fatal(sc.Err())
	}
	if off != int64(len(in)) {
		t.Fatalf("records cover %d of %d bytes: %q", off, len(in), in)
	}
	return out
}

// The cases follow testdata/omp/parity/SPEC.md §2.2 (Bun's JSONL parser as
// oh-my-pi drives it).
func TestValueScanner(t *testing.T) {
	O, N, M, B, T := jsonl.Object, jsonl.NonObject, jsonl.Malformed, jsonl.Blank, jsonl.TornTail
	cases := []struct {
		name string
		in   string
		want []scanned
	}{
		{"one per line", "{\"a\":1}\n{\"b\":2}\n", []scanned{{O, 1, `{"a":1}`}, {O, 2, `{"b":2}`}}},
		{"pretty object spans lines", "{\n  \"a\": 1\n}\n{\"b\":2}\n", []scanned{{O, 1, "{\n  \"a\": 1\n}"}, {O, 4, `{"b":2}`}}},
		{"glued second object is lost, first kept", "{\"a\":1}{\"b\":2}\n{\"c\":3}\n",
			[]scanned{{O, 1, `{"a":1}`}, {M, 1, `{"b":2}`}, {O, 2, `{"c":3}`}}},
		{"garbage line skipped", "{\"a\":1}\nnot json\n{\"b\":2}\n", []scanned{{O, 1, `{"a":1}`}, {M, 2, "not json"}, {O, 3, `{"b":2}`}}},
		{"broken multi-line object is re-read line by line", "{\n \"x\": {\n \"y\": 1\nnot json\n{\"ok\":1}\n",
			[]scanned{{M, 1, "{"}, {N, 2, ` "x"`}, {M, 2, `: {`}, {N, 3, ` "y"`}, {M, 3, `: 1`}, {M, 4, "not json"}, {O, 5, `{"ok":1}`}}},
		{"truncated tail", "{\"a\":1}\n{\"b\":", []scanned{{O, 1, `{"a":1}`}, {T, 2, `{"b":`}}},
		{"incomplete value swallows the rest", "{\"a\":1}\n{\"b\":\n{\"c\":3}\n",
			[]scanned{{O, 1, `{"a":1}`}, {M, 2, `{"b":`}, {M, 3, `{"c":3}`}}},
		{"blank and CRLF lines", "\n  \n{\"a\":1}\r\n", []scanned{{B, 1, ""}, {B, 2, "  "}, {O, 3, `{"a":1}`}}},
		{"non-objects are values", "42\n\"s\"\n[1]\nnull\n", []scanned{{N, 1, "42"}, {N, 2, `"s"`}, {N, 3, "[1]"}, {N, 4, "null"}}},
		{"value then spaces", "{\"a\":1}  \t\n", []scanned{{O, 1, "{\"a\":1}  \t"}}},
		{"BOM before a pretty object", "\ufeff{\n\"type\":\"session\",\"id\":\"x\"}\n", []scanned{{O, 1, "{\n\"type\":\"session\",\"id\":\"x\"}"}}},
		{"NUL run", "{\"a\":1}\n\x00\x00\x00\n{\"b\":2}\n", []scanned{{O, 1, `{"a":1}`}, {jsonl.NULRun, 2, "\x00\x00\x00"}, {O, 3, `{"b":2}`}}},
		{"no final newline", "{\"a\":1}", []scanned{{O, 1, `{"a":1}`}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, scanAll(t, c.in))
		})
	}
}

// A pretty-printed entry is one entry for omp, whose context reads it back
// by offset; pi drops its lines.
func TestOmpMultiLineEntry(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	body := `{"type":"session","version":3,"id":"s1","timestamp":"2026-05-01T00:00:00Z","cwd":"/x"}
{"type":"message","id":"a","parentId":null,"timestamp":"2026-05-01T00:00:01Z","message":{"role":"user","content":"one"}}
{
  "type": "message", "id": "b", "parentId": "a", "timestamp": "2026-05-01T00:00:02Z",
  "message": {"role": "user", "content": "two"}
}
`
	require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
	f, err := Open(p, Options{Dialect: DialectOmp})
	require.NoError(t, err)
	require.Len(t, f.Entries, 2)
	require.EqualValues(t, 3, f.Line(1))
	ctx, err := f.BuildContext(tree.None)
	require.NoError(t, err)
	require.Len(t, ctx.Messages, 2)
	require.JSONEq(t, `{"role":"user","content":"two"}`, string(ctx.Messages[1]))
	require.False(t, bytes.Contains(ctx.Messages[1], []byte("\n")), "printed on one line")

	pf, err := Open(p, Options{Dialect: DialectPi})
	require.NoError(t, err)
	require.Len(t, pf.Entries, 1, "pi parses line by line")

	// Auto-detection without an omp marker reads it as pi; with one (here a
	// title slot) the file is read again the omp way.
	slot := `{"type":"title","v":1,"title":"t","updatedAt":"2026-05-01T00:00:00Z","pad":""}` + "\n"
	require.NoError(t, os.WriteFile(p, []byte(slot+body), 0o600))
	af, err := Open(p, Options{})
	require.NoError(t, err)
	require.Equal(t, DialectOmp, af.Dialect)
	require.Len(t, af.Entries, 2)
	require.Equal(t, "t", af.Name)
}

func TestXcshRejectsTitleSlot(t *testing.T) {
	f, err := Open("../../../testdata/xcsh/parity/sessions/017-title-slot-unsupported.jsonl", Options{Dialect: DialectXcsh})
	require.NoError(t, err)
	require.ErrorContains(t, f.HeaderErr, "title slot")
	o, err := Open("../../../testdata/xcsh/parity/sessions/017-title-slot-unsupported.jsonl", Options{Dialect: DialectOmp})
	require.NoError(t, err)
	require.NoError(t, o.HeaderErr)
}

func FuzzValueScanner(f *testing.F) {
	for _, s := range []string{
		"{\"a\":1}\n", "{\n \"a\": [1,\n2]\n}\n", "{\"a\":1}{\"b\":2}\n", "{\n \"x\": {\n \"y\": 1\nnot json\n",
		"\ufeff{\"a\":1}\n", "42 43\n", "{\"a\":\"\x00\"}\n", "[\n", "\r\n\r\n{}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		recs := scanAll(t, in)
		// Whatever the input, a value record never starts inside another record.
		for i := 1; i < len(recs); i++ {
			if recs[i].Line < recs[i-1].Line {
				t.Fatalf("lines go back: %+v", recs)
			}
		}
	})
}

// BenchmarkReadStream compares indexing a well-formed file the omp way
// (value scanner) with pi's line-based pass. The input is generated in a
// temporary folder.
func BenchmarkReadStream(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"type":"session","version":3,"id":"bench","timestamp":"2026-05-01T00:00:00Z","cwd":"/x"}` + "\n")
	text := strings.Repeat("x", 800)
	prev := "null"
	for i := 0; i < 20000; i++ {
		id := `"e` + strings.Repeat("0", 6-len(itoa(i))) + itoa(i) + `"`
		buf.WriteString(`{"type":"message","id":` + id + `,"parentId":` + prev + `,"timestamp":"2026-05-01T00:00:01Z","message":{"role":"user","content":[{"type":"text","text":"` + text + `"}]}}` + "\n")
		prev = id
	}
	p := filepath.Join(b.TempDir(), "bench.jsonl")
	require.NoError(b, os.WriteFile(p, buf.Bytes(), 0o600))
	for _, d := range []Dialect{DialectPi, DialectOmp} {
		b.Run(string(d), func(b *testing.B) {
			b.SetBytes(int64(buf.Len()))
			for i := 0; i < b.N; i++ {
				f, err := Open(p, Options{Dialect: d})
				if err != nil || f.HeaderErr != nil || len(f.Entries) != 20000 {
					b.Fatal(err, f.HeaderErr)
				}
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestValueScannerMatchesBun replays inputs whose parse by Bun 1.4.5's
// JSONL.parseChunk, driven by oh-my-pi's lenient loop, was recorded by
// testdata/bunjsonl/gen.ts: the scanner must yield the same values.
func TestValueScannerMatchesBun(t *testing.T) {
	raw, err := os.ReadFile("testdata/bunjsonl/cases.json")
	require.NoError(t, err)
	var fx struct {
		Cases []struct {
			Input  string   `json:"input"`
			Values []string `json:"values"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &fx))
	require.NotEmpty(t, fx.Cases)
	tolerated := 0
	for i, c := range fx.Cases {
		var got []any
		sc := newValueScanner(strings.NewReader(c.Input))
		for sc.Next() {
			r := sc.Record()
			if r.Kind == jsonl.Object || r.Kind == jsonl.NonObject {
				got = append(got, decodePlain(t, r.Body()))
			}
		}
		want := make([]any, len(c.Values))
		for j, v := range c.Values {
			want[j] = decodePlain(t, []byte(v))
		}
		if len(want) == 0 {
			want = nil
		}
		if !reflect.DeepEqual(want, got) && knownBunDivergence(c.Input, want, got) {
			// Documented in docs/formats.md ("oh-my-pi and xcsh").
			t.Logf("case %d: known divergence (Bun drops %d more values at an unterminated last line): %q", i, len(got)-len(want), c.Input)
			tolerated++
			continue
		}
		require.Equal(t, want, got, "case %d: %q", i, c.Input)
	}
	t.Logf("%d inputs compared, %d known divergences", len(fx.Cases), tolerated)
	require.LessOrEqual(t, tolerated, 2, "only the two planted divergent inputs may differ")
}

// decodePlain decodes JSON with numbers as float64 (Bun's values went through
// JSON.stringify, which normalises them).
func decodePlain(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(b, &v), "%s", b)
	return v
}

// knownBunDivergence: the input ends without a newline and Bun's values are
// a strict prefix of ours. Bun's parser sometimes reports a break found in a
// last line without newline as "waiting for more data" rather than as an
// error (which it does depends on the token there: a bare scalar, a lone
// brace), and the lenient loop then drops everything from the broken value's
// first line; sessctl drops only that line and reads the next lines again.
func knownBunDivergence(in string, want, got []any) bool {
	if strings.HasSuffix(in, "\n") || len(got) <= len(want) {
		return false
	}
	for i := range want {
		if !reflect.DeepEqual(want[i], got[i]) {
			return false
		}
	}
	return true
}
