package search

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/memtest"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// firstHit runs search -l (FirstOnly) on one pi file.
func firstHit(t *testing.T, path, pattern string, o Options) (*Hit, uint64) {
	t.Helper()
	m, err := Compile(pattern, o)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Matcher: m, FirstOnly: true, Workers: 1,
		Format: func(string) sessfmt.Format { return pi.Format{} },
		Open:   func(sessfmt.Ref) (sessfmt.Session, error) { t.Fatal("opened"); return nil, nil }}
	var hit *Hit
	var rerr error
	n := memtest.Allocated(func() {
		rerr = Run(cfg, []Target{{Ref: sessfmt.Ref{Format: "pi", Path: path}, Describe: func() (string, string, string, error) { return "pi", "s", "t", nil }}}, func(r *Result) error {
			if r.Err != nil {
				rerr = r.Err
			}
			if len(r.Hits) > 0 {
				hit = &r.Hits[0]
			}
			return nil
		})
	})
	if rerr != nil {
		t.Fatal(rerr)
	}
	return hit, n
}

// TestLongLineMatchedInPieces: search -l in a pi session whose message is
// one 6 MiB line (over jsonl.LongLine) does not hold the line (before:
// about 3x its size allocated), finds a match across a 64 KiB piece of the
// decoded text and one split by a JSON escape, and gives the hit (count,
// snippet, spans) the whole text gives.
func TestLongLineMatchedInPieces(t *testing.T) {
	dir := t.TempDir()
	// The text: filler, a match straddling offset 64 KiB, filler with an
	// escaped newline and tab every few KiB.
	var b strings.Builder
	b.WriteString(strings.Repeat("x", jsonl.StringPiece-3))
	b.WriteString("NEEDLE")
	for b.Len() < 6<<20 {
		b.WriteString(strings.Repeat("y", 4000))
		b.WriteString("\n\t")
	}
	b.WriteString("split\"quote")
	b.WriteString(strings.Repeat("z", 100))
	text := b.String()
	msg, _ := json.Marshal(map[string]any{"type": "message", "id": "m1", "parentId": nil, "timestamp": "2026-01-01T00:00:00Z",
		"message": map[string]any{"role": "user", "content": text}})
	if len(msg) <= jsonl.LongLine {
		t.Fatalf("line of %d bytes is not long", len(msg))
	}
	path := filepath.Join(dir, "s.jsonl")
	data := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}` + "\n" + string(msg) + "\n"
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pattern string
		o       Options
	}{
		{"NEEDLE", Options{}},
		{"needle", Options{IgnoreCase: true}},
		{"t\"q", Options{}},
		{"y\n\tyy", Options{}},
		{"Y\n\tYY", Options{IgnoreCase: true}},
		// -E with a bounded match length and no assertion (regexpMaxLen)
		{`NEE(DLE|XX)`, Options{Regexp: true}},
		{`y\n\ty{2}`, Options{Regexp: true}},
		{`(?i)t"q.{0,3}`, Options{Regexp: true}},
		{`n[e]+dle`, Options{Regexp: true, IgnoreCase: true}}, // unbounded: matched in pieces (matches under maxStreamLen)
	} {
		hit, n := firstHit(t, path, c.pattern, c.o)
		if hit == nil {
			t.Fatalf("%q: no hit", c.pattern)
		}
		if _, bounded := regexpMaxLen(c.pattern); (!c.o.Regexp || bounded) && n > 16<<20 {
			t.Errorf("%q: %d MiB allocated for a %d MiB line", c.pattern, n>>20, len(msg)>>20)
		}
		m, _ := Compile(c.pattern, c.o)
		spans, total := m.Find(text, 0)
		snip, sp := Snippet(text, spans, 60)
		if hit.Matches != total || hit.Snippet != snip || len(hit.Spans) != len(sp) || hit.Line != 2 {
			t.Errorf("%q: hit %d %q %v line %d, want %d %q %v", c.pattern, hit.Matches, hit.Snippet, hit.Spans, hit.Line, total, snip, sp)
			continue
		}
		for i := range sp {
			if hit.Spans[i] != sp[i] {
				t.Errorf("%q: spans %v, want %v", c.pattern, hit.Spans, sp)
			}
		}
	}
}

func TestRegexpMaxLen(t *testing.T) {
	for expr, want := range map[string]int{
		`abc`:          3,
		`NEE(DLE|XX)`:  6,
		`é`:            2,
		`(?i)k`:        4, // K (Kelvin) is 3 bytes: UTFMax per folded rune
		`a.c`:          6,
		`[a-z]{2,5}x?`: 21,
		`x{3}`:         3,
		`a|bcd`:        3,
	} {
		n, ok := regexpMaxLen(expr)
		if !ok || n != want {
			t.Errorf("%s: %d %v, want %d", expr, n, ok, want)
		}
	}
	for _, expr := range []string{`a+`, `ab*`, `x{2,}`, `^abc`, `abc$`, `\bword`, `a\Bb`, `(?m)^x`, `\Aab`, `ab\z`, `a{1000}{1000}`} {
		if n, ok := regexpMaxLen(expr); ok {
			t.Errorf("%s: %d, want unbounded", expr, n)
		}
	}
}
