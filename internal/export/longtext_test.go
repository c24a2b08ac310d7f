package export

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"html"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/memtest"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// randomText makes a text of about n bytes from pieces that matter to the
// writers: newlines, leading spaces, fence openings (``` and ~~~, whole and
// cut), backtick runs, brackets, markup, control characters, bidi
// overrides, non-ASCII text and, when invalid, invalid UTF-8.
func randomText(r *rand.Rand, n int, invalid bool) string {
	parts := []string{"\n", "\n\n", " ", "   ", "\t", "```", "~~~", "``", "~~", "`", "~", "````go", "[x](y)", "<b>&amp;", "abc", "word ",
		"\x1b[31m", "\u202e", "é", "日本語", "\U0001F600", "\ufffd", "\r", "\x7f", "\u0085"}
	if invalid {
		parts = append(parts, "\xff", "\xe2\x82", "\xed\xa0\x80")
	}
	var b strings.Builder
	for b.Len() < n {
		p := parts[r.IntN(len(parts))]
		if r.IntN(60) == 0 {
			p = strings.Repeat("x", r.IntN(70000))
		}
		b.WriteString(p)
	}
	return b.String()
}

// chunks cuts s at random character boundaries (as DecodeString's pieces
// end).
func chunks(r *rand.Rand, s string) []string {
	var out []string
	for len(s) > 0 {
		k := 1 + r.IntN(min(len(s), 40))
		for k < len(s) && !utf8.RuneStart(s[k]) {
			k++
		}
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}

// TestAppendText: the piecewise escaper gives the held functions' bytes:
// render.Escape, mdProse's escaping, html.EscapeString(clean(s)).
func TestAppendText(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	texts := []string{"", "\x00\x1f\x7f\u0080\u009f\u202a\u202e\u2066\u2069\ufffd", "\xff\xe2\x82\xed\xa0\x80", `<a href="x">'&'</a>[]`}
	for k := 0; k < 500; k++ {
		texts = append(texts, randomText(r, r.IntN(300), true))
	}
	for c := 0; c < 0x3000; c++ {
		texts = append(texts, string(rune(c)))
	}
	for _, s := range texts {
		if got, want := string(appendText(nil, s, escTerm)), render.Escape(s); got != want {
			t.Fatalf("term %q: %q, want %q", s, got, want)
		}
		if got, want := string(appendText(nil, s, escMD)), strings.NewReplacer("[", "\\[", "]", "\\]").Replace(escapeHTMLText(render.Escape(s))); got != want {
			t.Fatalf("md %q: %q, want %q", s, got, want)
		}
		if got, want := string(appendText(nil, s, escHTML)), html.EscapeString(clean(s)); got != want {
			t.Fatalf("html %q: %q, want %q", s, got, want)
		}
	}
}

// TestProseWriterEqualsMDProse: the streamed prose writer gives mdProse's
// bytes for any text in any chunking.
func TestProseWriterEqualsMDProse(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	texts := []string{"", "\n", "```", "  ```", " ``", "``\n```x", "~~~\n  ~~~~\n ~`~", "a\n   \n```", "[a](b)\n  ~~~ x", "\n\n```"}
	for k := 0; k < 300; k++ {
		texts = append(texts, randomText(r, r.IntN(400), k%2 == 0))
	}
	for i, s := range texts {
		for rep := 0; rep < 3; rep++ {
			var b bytes.Buffer
			w := bufio.NewWriter(&b)
			p := newProseWriter(w)
			for _, c := range chunks(r, s) {
				p.piece(c)
			}
			p.flush()
			w.Flush()
			if want := mdProse(s); b.String() != want {
				t.Fatalf("text %d %q:\nwant %q\ngot  %q", i, s, want, b.String())
			}
		}
	}
}

// writeRef writes raw (a JSON string) into a file at an offset and returns
// its reference.
func writeRef(t *testing.T, dir string, raw []byte, verbatim bool) *model.TextRef {
	t.Helper()
	p := filepath.Join(dir, fmt.Sprintf("f%d", rand.Int()))
	const off = 7
	if err := os.WriteFile(p, append(append(bytes.Repeat([]byte{'{'}, off), raw...), "}\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	return &model.TextRef{Path: p, Off: off, Len: int64(len(raw)), Verbatim: verbatim}
}

// TestLongTextEqualsHeld: a text, thinking and tool result block (folded
// and not) written from the file give the same Markdown and HTML as the
// held text, for escaped strings and strings read verbatim (invalid UTF-8
// kept), up to three times DecodeString's piece, so pieces end anywhere.
func TestLongTextEqualsHeld(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	var texts []string
	for _, n := range []int{0, 1, 300, 5000, 70000, 3 * jsonl.StringPiece} {
		for k := 0; k < 3; k++ {
			texts = append(texts, randomText(r, n, false))
		}
	}
	texts = append(texts, "", "```", "  ~~~\n```", strings.Repeat("`", 70000), strings.Repeat("line\n", 30), strings.Repeat(" ", 100)+"```")
	type input struct {
		held     string
		raw      []byte
		verbatim bool
	}
	var inputs []input
	for _, s := range texts {
		raw, _ := json.Marshal(s)
		h, _ := jsonl.String(raw)
		inputs = append(inputs, input{held: h, raw: raw})
		v := strings.NewReplacer("\"", "", "\\", "").Replace(randomText(r, len(s), true))
		v = strings.Map(func(c rune) rune {
			if c < 0x20 && c != '\n' {
				return 'c'
			}
			return c
		}, v)
		inputs = append(inputs, input{held: v, raw: []byte(`"` + v + `"`), verbatim: true})
	}
	opts := []Options{{}, {FoldLines: 1 << 30, FoldBytes: 1 << 30}, {FoldLines: 3}}
	for i, in := range inputs {
		if in.verbatim {
			if s, ok := jsonl.String(in.raw); !ok || s != in.held {
				t.Fatalf("input %d: String does not give the held text", i)
			}
		}
		ref := writeRef(t, dir, in.raw, in.verbatim)
		for _, kind := range []string{"text", "thinking", "toolResult"} {
			for _, o := range opts {
				doc := func(b model.Block) *Doc {
					b.Kind, b.Name, b.IsError = kind, "bash", i%3 == 0
					return &Doc{Title: "t", Messages: []model.Message{{Role: "user", Blocks: []model.Block{b}}}}
				}
				for _, f := range []struct {
					name  string
					write func(*bytes.Buffer, *Doc) error
				}{
					{"markdown", func(b *bytes.Buffer, d *Doc) error { return Markdown(b, d, o) }},
					{"html", func(b *bytes.Buffer, d *Doc) error { return HTML(b, d, o) }},
				} {
					var want, got bytes.Buffer
					if err := f.write(&want, doc(model.Block{Text: in.held})); err != nil {
						t.Fatal(err)
					}
					if err := f.write(&got, doc(model.Block{LongText: ref})); err != nil {
						t.Fatalf("input %d %s %s: %v", i, kind, f.name, err)
					}
					if !bytes.Equal(want.Bytes(), got.Bytes()) {
						w, g := want.Bytes(), got.Bytes()
						k := 0
						for k < len(w) && k < len(g) && w[k] == g[k] {
							k++
						}
						t.Fatalf("input %d %s %s %+v: differs at byte %d: held %q, from the file %q", i, kind, f.name, o, k, clip(w[k:]), clip(g[k:]))
					}
				}
			}
		}
	}
}

func clip(b []byte) []byte {
	if len(b) > 120 {
		return b[:120]
	}
	return b
}

// writeLongSession writes a pi session whose first message is one line of
// about size bytes: a user text with escapes, non-ASCII text and surrogate
// pairs; then a reply whose tool result is long too.
func writeLongSession(t testing.TB, size int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "2026-01-01T00-00-00-000Z_s1.jsonl")
	fh, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	chunk := strings.Repeat("abcdefghij", 400) + `\n\t\"é\u00e9\ud83d\ude00 <b>[x]</b>\n` + "```" + ` `
	text := func(n int) {
		w.WriteString(`"`)
		for k := 0; k < n; k += len(chunk) {
			w.WriteString(chunk)
		}
		w.WriteString(`"`)
	}
	w.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}` + "\n")
	w.WriteString(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":`)
	text(size)
	w.WriteString(`,"timestamp":1}}` + "\n")
	w.WriteString(`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}],"provider":"p","model":"m","timestamp":2}}` + "\n")
	w.WriteString(`{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-01-01T00:00:03Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":`)
	text(size / 4)
	w.WriteString(`}],"isError":false,"timestamp":3}}` + "\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

type hashCounter struct {
	h hash.Hash
	n int64
}

func (c *hashCounter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.h.Write(p)
}

// TestLongLineExportNotHeld: the Markdown and HTML export of a session
// whose first message is one 64 MiB line (and whose tool result is 16 MiB)
// allocate a few MiB, not the lines and their text (before: about three
// times the line), and write the same bytes as the held texts give.
func TestLongLineExportNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes an 80 MiB file")
	}
	const size = 64 << 20
	p := writeLongSession(t, size)
	open := func() sessfmt.Session {
		s, err := pi.OpenSession(sessfmt.Ref{Path: p}, p, sessfmt.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, f := range []struct {
		name  string
		write func(*bufio.Writer, *Doc) error
	}{
		{"markdown", func(w *bufio.Writer, d *Doc) error { return Markdown(w, d, Options{}) }},
		{"html", func(w *bufio.Writer, d *Doc) error { return HTML(w, d, Options{}) }},
	} {
		s := open()
		// The title (Meta, list's scanner of format/pi) is read first:
		// pi's TestLongLineShowNotHeld bounds it on its own.
		am := memtest.Allocated(func() { s.Meta() })
		streamed := &hashCounter{h: sha256.New()}
		a := memtest.Allocated(func() {
			d, err := Collect(s, sessfmt.ContextOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if f.name == "html" {
				if err := d.LoadImages(s); err != nil {
					t.Fatal(err)
				}
			}
			w := bufio.NewWriterSize(streamed, 1<<16)
			if err := f.write(w, d); err != nil {
				t.Fatal(err)
			}
			w.Flush()
		})
		s.Close()
		t.Logf("%s: allocated %.1f MiB (and Meta %.1f MiB), wrote %.1f MiB", f.name, float64(a)/(1<<20), float64(am)/(1<<20), float64(streamed.n)/(1<<20))
		if a > 16<<20 {
			t.Errorf("%s export allocated %.1f MiB: it holds the long line", f.name, float64(a)/(1<<20))
		}
		if streamed.n < size/2 {
			t.Fatalf("%s: the text was not written (%d bytes)", f.name, streamed.n)
		}
		// the same document with every text held
		s = open()
		d, err := Collect(s, sessfmt.ContextOptions{})
		if err != nil {
			t.Fatal(err)
		}
		refs := 0
		for i := range d.Messages {
			for j := range d.Messages[i].Blocks {
				if d.Messages[i].Blocks[j].LongText != nil {
					refs++
				}
				if err := holdText(&d.Messages[i].Blocks[j]); err != nil {
					t.Fatal(err)
				}
			}
		}
		if refs != 2 {
			t.Fatalf("%d texts by reference, want 2 (the user text, the tool result)", refs)
		}
		held := &hashCounter{h: sha256.New()}
		w := bufio.NewWriterSize(held, 1<<16)
		if err := f.write(w, d); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		s.Close()
		if !bytes.Equal(held.h.Sum(nil), streamed.h.Sum(nil)) {
			t.Fatalf("%s: the export written from the file differs from the held one (%d and %d bytes)", f.name, streamed.n, held.n)
		}
	}
}
