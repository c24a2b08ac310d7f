package search

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/memtest"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// writeLongTexts writes a pi session with lines over jsonl.LongLine: a user
// message whose text holds NEEDLE at and around the decoder's piece
// boundaries, split by a JSON escape (NEE\u0044LE), after escapes and
// non-ASCII text; an off-path branch; a tool result of two text blocks (one
// long, one short) with matches in both; an assistant message whose tool
// call's arguments are long (not matched in pieces: read whole); and short
// messages in between. With one, the other long strings are a few bytes.
func writeLongTexts(t testing.TB, size int, one bool) string {
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
	if one {
		// The long user message only.
		size = 0
	}
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
	n := memtest.Allocated(func() {
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
	path := writeLongTexts(t, size, false)
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
		// Unbounded: matched in pieces (every match here is shorter
		// than maxStreamLen: . stops at the text's newlines).
		{"NE+DLE", Options{Regexp: true}, sessfmt.TextBody | sessfmt.TextToolOutput},
		{"NEE.*?DLE", Options{Regexp: true}, sessfmt.TextBody | sessfmt.TextToolOutput},
		{"a+NEEDLE", Options{Regexp: true}, sessfmt.TextBody},
		// Tests a position, bounded: matched in pieces with a byte of
		// context either side.
		{`(?i)needle\b`, Options{Regexp: true}, sessfmt.TextBody},
		{`\bNEEDLE`, Options{Regexp: true}, sessfmt.TextDefault},
		{`\BDLE\b`, Options{Regexp: true}, sessfmt.TextDefault},
		{`^aaa`, Options{Regexp: true}, sessfmt.TextDefault},
		{`NEEDLE$`, Options{Regexp: true}, sessfmt.TextAll},
		{`(?m)^\tab|j$`, Options{Regexp: true}, sessfmt.TextDefault},
		{`(?i)\Bneedle\B`, Options{Regexp: true}, sessfmt.TextDefault},
		// Tests a position, unbounded: held.
		{`\bNE+DLE`, Options{Regexp: true}, sessfmt.TextBody},
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
			if !c.o.Regexp && c.kinds&sessfmt.TextToolInput == 0 && n > 16<<20 {
				t.Errorf("%q active=%v: %d MiB allocated for %d MiB lines", c.pattern, active, n>>20, size>>20)
			}
			t.Logf("%q active=%v kinds=%v: %d hits, %.1f MiB allocated", c.pattern, active, c.kinds, strings.Count(got, "\n"), float64(n)/(1<<20))
		}
	}
}

// streamAll matches text handed to a streamMatch in pieces of n bytes.
func streamAll(m *Matcher, text string, n int) (total int, snippet string, spans [][2]int) {
	sm := newStreamMatch(m, 60)
	for i := 0; i < len(text); i += n {
		sm.piece([]byte(text[i:min(i+n, len(text))]))
	}
	sm.end()
	if sm.total == 0 {
		return 0, "", nil
	}
	snip, sp := Snippet(string(sm.local), sm.spans, 60)
	return sm.total, snip, sp
}

// TestUnboundedInPieces: a regular expression with unbounded repetition
// and no assertion is matched in pieces as the whole text is while its
// matches are at most maxStreamLen long; a longer match is cut short or
// missed (the documented bound: logged, as the result then depends on the
// text); one that tests a position is not matched in pieces at all.
func TestUnboundedInPieces(t *testing.T) {
	text := strings.Repeat("abc\n", 10000) + "x" + strings.Repeat("a", 1000) + "y" + strings.Repeat("q", 100000) + "x" + strings.Repeat("a", 2*maxStreamLen) + "y!"
	for _, expr := range []string{`xa+y`, `(?s)b.*c`, `xa{10,}y|q+!?`, `xa*y`, `bc\na+`, `a[bc]+\n`, `q{3,}a?`, `c\na*y?`} {
		m, err := Compile(expr, Options{Regexp: true})
		if err != nil {
			t.Fatal(err)
		}
		if m.pieceLen() != maxStreamLen {
			t.Fatalf("%s: pieceLen %d", expr, m.pieceLen())
		}
		spans, total := m.Find(text, 0)
		snip, sp := Snippet(text, spans, 60)
		short := true // every match of the whole text is within the bound
		for _, s := range spans {
			short = short && s[1]-s[0] <= maxStreamLen
		}
		for _, n := range []int{1000, 4096, jsonl.StringPiece} {
			gt, gs, gsp := streamAll(m, text, n)
			same := gt == total && gs == snip && fmt.Sprint(gsp) == fmt.Sprint(sp)
			if short && !same {
				t.Errorf("%s pieces of %d: %d matches, snippet of %d bytes %v; held %d, %d bytes %v", expr, n, gt, len(gs), gsp, total, len(snip), sp)
			}
			if n == 4096 {
				t.Logf("%s: held %d matches, streamed %d (all matches within the bound: %v)", expr, total, gt, short)
			}
		}
	}
	for _, expr := range []string{`\babc+`, `(?m)^a+`, `\Aab*`, `\b`, `a?\b`} {
		m, _ := Compile(expr, Options{Regexp: true})
		if m.pieceLen() != 0 {
			t.Errorf("%s: matched in pieces", expr)
		}
	}
}

// TestLongLineSearchNotHeld: search without -l in a session whose message
// is one 64 MiB line allocates a few MiB, not the line (before: several
// times its size), for fixed strings, -i, and bounded and unbounded
// regular expressions, and finds what the held reading finds.
func TestLongLineSearchNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB file")
	}
	const size = 64 << 20
	path := writeLongTexts(t, size, true)
	for _, c := range []struct {
		pattern string
		o       Options
	}{
		{"NEEDLE", Options{}},
		{"needle", Options{IgnoreCase: true}},
		{`NEE(DLE|XX)\s`, Options{Regexp: true}},
		{`NE+DLE`, Options{Regexp: true}},
		{`j\n\t.*?NEEDLE`, Options{Regexp: true}},
	} {
		m, err := Compile(c.pattern, c.o)
		if err != nil {
			t.Fatal(err)
		}
		got, n := searchAll(t, path, m, sessfmt.TextDefault, true)
		t.Logf("%q: %.1f MiB allocated", c.pattern, float64(n)/(1<<20))
		// About 7 MiB of it is opening the session (its index pass's
		// buffers), the same for any line length.
		if n > 24<<20 {
			t.Errorf("%q: %d MiB allocated for a %d MiB line", c.pattern, n>>20, size>>20)
		}
		streamLong = false
		want, _ := searchAll(t, path, m, sessfmt.TextDefault, true)
		streamLong = true
		if got != want || got == "" {
			t.Errorf("%q: streamed\n%.2000s\nheld\n%.2000s", c.pattern, got, want)
		}
	}
}

// TestAssertionsInPieces: a bounded regular expression that tests
// positions, matched over random texts handed in pieces of every small
// size, gives the whole text's count, snippet and spans.
func TestAssertionsInPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	exprs := []string{`\bab`, `b\b`, `\Ba\B`, `^a`, `b$`, `(?m)^ab?`, `(?m)b$`, `\Aa|b\z`, `(?m)^\n`, `\bé`, `é\b`, `(?i)\bA.b\b`, `(?m)$\n^a`}
	for _, expr := range exprs {
		m, err := Compile(expr, Options{Regexp: true})
		if err != nil {
			t.Fatal(err)
		}
		if m.ctxRe == nil || m.pieceLen() == 0 {
			t.Fatalf("%s: not matched in pieces", expr)
		}
		for i := 0; i < 300; i++ {
			var b strings.Builder
			for n := rng.IntN(40); n > 0; n-- {
				b.WriteString([]string{"a", "b", " ", "\n", "é", "_"}[rng.IntN(6)])
			}
			text := b.String()
			spans, total := m.Find(text, 0)
			snip, sp := Snippet(text, spans, 60)
			for n := 1; n <= 8; n++ {
				gt, gs, gsp := streamAll(m, text, n)
				if total == 0 && gt == 0 {
					continue
				}
				if gt != total || gs != snip || fmt.Sprint(gsp) != fmt.Sprint(sp) {
					t.Fatalf("%s on %q in pieces of %d: %d %q %v, want %d %q %v", expr, text, n, gt, gs, gsp, total, snip, sp)
				}
			}
		}
	}
}
