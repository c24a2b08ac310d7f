package render

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fatih/color"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
)

// colored returns styles with colour on.
func colored() Styles {
	c := func(a ...color.Attribute) *color.Color { x := color.New(a...); x.EnableColor(); return x }
	return Styles{Dim: c(color.Faint), Bold: c(color.Bold), Active: c(color.FgGreen), Leaf: c(color.FgGreen),
		Role: c(color.FgCyan), Warn: c(color.FgYellow), Err: c(color.FgRed), OK: c(color.FgGreen)}
}

// randomText makes a text of about n bytes from pieces that matter to the
// printing: runs of newlines (leading and trailing too), spaces, tabs,
// control characters, bidi overrides, non-ASCII text, U+FFFD and, when
// invalid, invalid UTF-8.
func randomText(r *rand.Rand, n int, invalid bool) string {
	parts := []string{"\n", "\n\n\n", " ", "\t", "  \u00a0", "abc", "word ", "\x1b[31m", "\u202e", "é", "日本語", "\U0001F600", "\ufffd", "\r", "\x7f", "\u0085"}
	if invalid {
		parts = append(parts, "\xff", "\xe2\x82", "\xed\xa0\x80")
	}
	var b strings.Builder
	for b.Len() < n {
		p := parts[r.IntN(len(parts))]
		if r.IntN(50) == 0 {
			p = strings.Repeat("x", r.IntN(70000))
		}
		b.WriteString(p)
	}
	return b.String()
}

// TestLongTextEqualsHeld: a text block, a folded and an unfolded thinking
// block, a tool result and a compaction summary print the same bytes
// whether their text is held (Text) or read from the file as it is printed
// (LongText), with colour on and off, folded at several line counts,
// for escaped strings and for strings without escapes read verbatim
// (invalid UTF-8 kept, as jsonl.String keeps it). Texts are up to three
// times DecodeString's piece, so pieces end anywhere in them.
func TestLongTextEqualsHeld(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, 5, 300, 70000, 3 * jsonl.StringPiece}
	var texts []string
	for _, n := range sizes {
		for k := 0; k < 4; k++ {
			texts = append(texts, randomText(r, n, false))
		}
	}
	texts = append(texts, "", "\n", "\n\n", "  \n  \n", "\nabc\n\n", strings.Repeat("line\n", 40), strings.Repeat(" ", 120)+"x", strings.Repeat("é", 150), "  "+strings.Repeat("a", 99)+"   ", strings.Repeat("a", 100)+" b", "  "+strings.Repeat("b", 100)+"  \nnext", strings.Repeat("\xff", 101), "\n \n"+strings.Repeat("é", 100))
	type input struct {
		held     string
		raw      []byte
		verbatim bool
	}
	var inputs []input
	for _, s := range texts {
		raw, _ := json.Marshal(s)
		h, _ := jsonl.String(raw) // invalid UTF-8 was marshalled as U+FFFD
		inputs = append(inputs, input{held: h, raw: raw})
		// the same text without escapes, read verbatim (invalid UTF-8 kept)
		v := strings.NewReplacer("\"", "", "\\", "").Replace(randomText(r, len(s), true))
		v = strings.Map(func(c rune) rune {
			if c < 0x20 && c != '\n' {
				return 'c'
			}
			return c
		}, v)
		inputs = append(inputs, input{held: v, raw: []byte(`"` + v + `"`), verbatim: true})
	}
	for i, in := range inputs {
		if in.verbatim {
			if s, ok := jsonl.String(in.raw); !ok || s != in.held {
				// control characters are not valid JSON but String keeps them
				t.Fatalf("input %d: String does not give the held text", i)
			}
		}
		p := filepath.Join(dir, "f")
		const off = 11
		if err := os.WriteFile(p, append(append(bytes.Repeat([]byte{'{'}, off), in.raw...), "}\n"...), 0o600); err != nil {
			t.Fatal(err)
		}
		ref := &model.TextRef{Path: p, Off: off, Len: int64(len(in.raw)), Verbatim: in.verbatim}
		for _, kind := range []string{"text", "thinking", "toolResult", "summary"} {
			for _, o := range []TranscriptOptions{{Styles: Plain()}, {Styles: colored(), Full: true}, {Styles: colored(), MaxLines: 1}, {Styles: Plain(), MaxLines: 3}, {Styles: Plain(), Full: true}} {
				msg := func(b model.Block) *model.Message {
					m := &model.Message{Role: "user", Blocks: []model.Block{b}}
					if kind == "summary" {
						m.Marker = CompactionSummary
					}
					return m
				}
				k := kind
				if k == "summary" {
					k = "text"
				}
				var want, got bytes.Buffer
				DrawMessage(&want, msg(model.Block{Kind: k, Name: "bash", Text: in.held}), o)
				if err := WriteMessage(&got, msg(model.Block{Kind: k, Name: "bash", LongText: ref}), o); err != nil {
					t.Fatalf("input %d %s: %v", i, kind, err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					g, w := got.String(), want.String()
					n := 0
					for n < len(g) && n < len(w) && g[n] == w[n] {
						n++
					}
					t.Fatalf("input %d (%d bytes, verbatim %v) %s %+v: differs at byte %d of %d/%d: got %q want %q",
						i, len(in.held), in.verbatim, kind, o.Full, n, len(g), len(w), clip(g[n:]), clip(w[n:]))
				}
			}
		}
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80]
	}
	return s
}

// TestLongTextUnreadable: a text whose file is gone is an error, not
// silently empty.
func TestLongTextUnreadable(t *testing.T) {
	ref := &model.TextRef{Path: filepath.Join(t.TempDir(), "gone"), Off: 0, Len: 10}
	var b bytes.Buffer
	if err := WriteMessage(&b, &model.Message{Role: "user", Blocks: []model.Block{{Kind: "text", LongText: ref}}}, TranscriptOptions{Styles: Plain()}); err == nil {
		t.Fatal("no error for a missing file")
	}
}

// FuzzLongText holds each streamed printing equal to the held one on any
// text (escaped, and verbatim when the text needs no escape), folded at
// 1 to 4 lines and with --full, colour on and off.
func FuzzLongText(f *testing.F) {
	for _, s := range []string{"", "\n", "a\n\nb\n", "  \u00a0x  \n", "\x1b]0;t\x07\u202e", "\xff\xe2\x82 x", strings.Repeat("é", 101), "\n \n\t\nz"} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(7))
	}
	p := filepath.Join(f.TempDir(), "f")
	f.Fuzz(func(t *testing.T, s string, opt uint8) {
		raw, _ := json.Marshal(s)
		held, _ := jsonl.String(raw)
		verbatim := !strings.ContainsAny(s, "\"\\") && strings.IndexFunc(s, func(r rune) bool { return r < 0x20 }) < 0
		if opt&8 != 0 && verbatim {
			raw, held = []byte(`"`+s+`"`), s
		} else {
			verbatim = false
		}
		if err := os.WriteFile(p, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		ref := &model.TextRef{Path: p, Len: int64(len(raw)), Verbatim: verbatim}
		o := TranscriptOptions{Styles: Plain(), MaxLines: 1 + int(opt&3), Full: opt&4 != 0}
		if opt&16 != 0 {
			o.Styles = colored()
		}
		for _, kind := range []string{"text", "thinking", "toolResult", "summary"} {
			m := func(b model.Block) *model.Message {
				msg := &model.Message{Role: "r", Blocks: []model.Block{b}}
				if kind == "summary" {
					msg.Marker = CompactionSummary
					b.Kind = "text"
					msg.Blocks[0] = b
				}
				return msg
			}
			var want, got bytes.Buffer
			DrawMessage(&want, m(model.Block{Kind: kind, Text: held}), o)
			if err := WriteMessage(&got, m(model.Block{Kind: kind, LongText: ref}), o); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%q %s %+v: got %q, want %q", s, kind, o.Full, got.String(), want.String())
			}
		}
	})
}
