package search

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// writeLongTexts writes a pi session with lines over jsonl.LongLine: a user
// message whose text holds NEEDLE at and around the decoder's piece
// boundaries, split by a JSON escape (NEE\u0044LE), after escapes and
// non-ASCII text; an off-path branch; a tool result of two text blocks (one
// long, one short) with matches in both; an assistant message whose tool
// call's arguments are long (not matched in pieces: read whole); and short
// messages in between.
func writeLongTexts(t testing.TB, size int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "2026-01-01T00-00-00-000Z_s1.jsonl")
	fh, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	// long writes a JSON string of about n bytes of raw text.
	long := func(n int) {
		w.WriteString(`"`)
		// ASCII first: decoded offsets are the raw ones, so the
		// matches fall at and across the pieces' boundaries.
		pos := 0
		for _, at := range []int{jsonl.StringPiece - 9, jsonl.StringPiece - 3, 2*jsonl.StringPiece - 1, 3 * jsonl.StringPiece, 4*jsonl.StringPiece + 2} {
			w.WriteString(strings.Repeat("a", at-pos))
			w.WriteString("NEEDLE")
			pos = at + 6
		}
		chunk := strings.Repeat("abcdefghij", 300) + `\n\t\"é\u00e9\ud83d\ude00 NEE\u0044LE needle `
		for k := pos; k < n; k += len(chunk) {
			w.WriteString(chunk)
		}
		w.WriteString(`NEEDLE"`)
	}
	w.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}` + "\n")
	w.WriteString(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":`)
	long(size)
	w.WriteString(`,"timestamp":1}}` + "\n")
	w.WriteString(`{"type":"message","id":"b1","parentId":"a1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":[{"type":"text","text":`)
	long(size)
	w.WriteString(`}],"timestamp":2}}` + "\n")
	w.WriteString(`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"assistant","content":[{"type":"text","text":"a NEEDLE here"},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"echo NEEDLE"}}],"provider":"p","model":"m","timestamp":3}}` + "\n")
	w.WriteString(`{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-01-01T00:00:04Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":`)
	long(size)
	w.WriteString(`},{"type":"text","text":"short NEEDLE"}],"isError":false,"timestamp":4}}` + "\n")
	w.WriteString(`{"type":"message","id":"a4","parentId":"a3","timestamp":"2026-01-01T00:00:05Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":`)
	long(size)
	w.WriteString(`},{"type":"toolCall","id":"c2","name":"write","arguments":{"content":`)
	long(size)
	w.WriteString(`}}],"provider":"p","model":"m","timestamp":5}}` + "\n")
	w.WriteString(`{"type":"message","id":"a5","parentId":"a4","timestamp":"2026-01-01T00:00:06Z","message":{"role":"user","content":"last needle"}}` + "\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// searchAll runs search without -l on the pi file at path and returns its
// hits as JSON (one a line), and the bytes allocated.
func searchAll(t testing.TB, path string, m *Matcher, kinds sessfmt.TextKind, active bool) (string, uint64) {
	t.Helper()
	open := func(ref sessfmt.Ref) (sessfmt.Session, error) {
		return pi.OpenSession(ref, ref.Path, sessfmt.OpenOptions{})
	}
	cfg := Config{Matcher: m, Kinds: kinds, ActiveOnly: active, Workers: 1, Open: open}
	var b strings.Builder
	var rerr error
	n := allocatedBy(func() {
		rerr = Run(cfg, []Target{{Ref: sessfmt.Ref{Format: "pi", Path: path}, Agent: "pi", ID: "s1", Title: "t"}}, func(r *Result) error {
			if r.Err != nil {
				rerr = r.Err
			}
			for _, h := range r.Hits {
				j, _ := json.Marshal(h)
				b.Write(j)
				b.WriteByte('\n')
			}
			return nil
		})
	})
	if rerr != nil {
		t.Fatal(rerr)
	}
	return b.String(), n
}

// TestLongLineSearchEqualsHeld: search without -l gives the same hits
// (entries, roles, times, on-path, counts, snippets and spans; one per text
// with a match) whether lines over jsonl.LongLine are matched in pieces or
// held, for fixed strings, -i, bounded and unbounded regular expressions,
// on and off the active path, every kind of text; and the streamed search
// allocates a few MiB, not the lines.
func TestLongLineSearchEqualsHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 30 MiB file")
	}
	const size = 5 << 20
	path := writeLongTexts(t, size)
	for _, c := range []struct {
		pattern string
		o       Options
		kinds   sessfmt.TextKind
	}{
		{"needle", Options{IgnoreCase: true}, sessfmt.TextBody},
		{"NEEDLE", Options{}, sessfmt.TextDefault},
		{"NEEDLE", Options{}, sessfmt.TextAll},
		{"needle", Options{IgnoreCase: true}, sessfmt.TextBody},
		{"DLEa", Options{}, sessfmt.TextBody},
		{"ij\n\t\"é", Options{}, sessfmt.TextDefault},
		{"😀 NEEDLE", Options{}, sessfmt.TextDefault},
		{`NEE(DLE|XX)\s`, Options{Regexp: true}, sessfmt.TextDefault},
		{`(?i)e{2}dle`, Options{Regexp: true}, sessfmt.TextAll},
		{"absent", Options{}, sessfmt.TextDefault},
		{"NE+DLE", Options{Regexp: true}, sessfmt.TextBody | sessfmt.TextToolOutput}, // unbounded: held
	} {
		m, err := Compile(c.pattern, c.o)
		if err != nil {
			t.Fatal(err)
		}
		for _, active := range []bool{true, false} {
			streamLong = true
			got, n := searchAll(t, path, m, c.kinds, active)
			streamLong = false
			want, _ := searchAll(t, path, m, c.kinds, active)
			streamLong = true
			if got != want {
				t.Errorf("%q active=%v: streamed\n%s\nheld\n%s", c.pattern, active, got, want)
			}
			if c.pattern != "absent" && got == "" {
				t.Errorf("%q active=%v: no hit", c.pattern, active)
			}
			// The tool call's long arguments are read whole only when
			// tool input is searched; an unbounded pattern reads every
			// long candidate line whole.
			bounded := m.maxLen > 0
			if bounded && c.kinds&sessfmt.TextToolInput == 0 && n > 16<<20 {
				t.Errorf("%q active=%v: %d MiB allocated for %d MiB lines", c.pattern, active, n>>20, size>>20)
			}
			t.Logf("%q active=%v kinds=%v: %d hits, %.1f MiB allocated", c.pattern, active, c.kinds, strings.Count(got, "\n"), float64(n)/(1<<20))
		}
	}
}
