package claude

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/sessctl/sessctl/internal/export"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/memtest"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/render"
	"github.com/sessctl/sessctl/internal/search"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/valyala/fastjson"
)

// The kinds of long line the tests write: where the long text is.
var longKinds = []string{"result-string", "result-array", "text", "thinking", "user"}

// longJSON writes a JSON string (quotes included) of about size bytes:
// leading white space, a first line, then lines with escapes, non-ASCII
// text, a surrogate pair, a lone surrogate (fastjson keeps it as
// written), U+2028, HTML characters and the word needle.
func longJSON(w *bufio.Writer, size int, first string) {
	w.WriteString(`"  \n  ` + first + ` <b>&amp;</b> \"quoted\" é 日本 \ud83d\ude00 needle\n`)
	chunk := `line \"q\" \\ é 日本 😀 \u00e9\t<x>&amp; \u2028 needle\n`
	n := len(first) + 60
	for k := 0; n < size; k++ {
		if k == 1000 {
			w.WriteString(`lone \ud800 surrogate \udc00\u0041 pair\n`)
		}
		w.WriteString(chunk)
		n += len(chunk)
	}
	w.WriteString(`\n\n  "`)
}

// writeLongClaude writes a Claude Code session whose line of kind is
// about size bytes long (see longKinds); long writes the long string.
func writeLongClaude(t testing.TB, dir, kind string, size int, long func(w *bufio.Writer, size int)) string {
	t.Helper()
	p := filepath.Join(dir, "0199aaaa-0000-7000-8000-00000000000"+fmt.Sprint(len(kind)%10)+".jsonl")
	fh, err := os.Create(p)
	require.NoError(t, err)
	w := bufio.NewWriterSize(fh, 1<<20)
	str := func(k, s string) {
		if kind == k {
			long(w, size)
			return
		}
		b, _ := json.Marshal(s)
		w.Write(b)
	}
	const common = `"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"0199aaaa","version":"2.1.0","gitBranch":"main"`
	w.WriteString(`{"parentUuid":null,` + common + `,"type":"user","message":{"role":"user","content":`)
	str("user", "please look")
	w.WriteString(`},"uuid":"u1","timestamp":"2026-01-01T00:00:01.000Z"}` + "\n")
	w.WriteString(`{"parentUuid":"u1",` + common + `,"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"thinking","thinking":`)
	str("thinking", "hmm")
	w.WriteString(`,"signature":"sig"},{"type":"text","text":`)
	str("text", "I will look")
	w.WriteString(`},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":`)
	str("input", "cat big")
	w.WriteString(`}}],"usage":{"input_tokens":3,"output_tokens":4}},"uuid":"a1","timestamp":"2026-01-01T00:00:02.000Z"}` + "\n")
	w.WriteString(`{"parentUuid":"a1",` + common + `,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":`)
	if kind == "result-array" {
		w.WriteString(`[{"type":"text","text":`)
		long(w, size)
		w.WriteString(`}]`)
	} else {
		str("result-string", "ok")
	}
	w.WriteString(`,"is_error":false}]},"uuid":"r1","timestamp":"2026-01-01T00:00:03.000Z","toolUseResult":{"stdout":"x"}}` + "\n")
	w.WriteString(`{"parentUuid":"r1",` + common + `,"type":"assistant","message":{"id":"m2","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":3,"output_tokens":4}},"uuid":"a2","timestamp":"2026-01-01T00:00:04.000Z"}` + "\n")
	require.NoError(t, w.Flush())
	require.NoError(t, fh.Close())
	return p
}

// showSink prints a transcript as show does (a model.TextRefTaker: long
// texts come as references) or, when held, as a sink that takes none.
type showSink struct {
	w io.Writer
	o render.TranscriptOptions
}

func (k *showSink) Header(lines []string) error {
	render.DrawTranscriptHeader(k.w, lines, k.o)
	return nil
}

func (k *showSink) Message(m *model.Message) error { return render.WriteMessage(k.w, m, k.o) }

type refShowSink struct{ *showSink }

func (refShowSink) TakesTextRefs() bool { return true }

// hashWriter hashes and counts what is written.
type hashWriter struct {
	h interface {
		io.Writer
		Sum([]byte) []byte
	}
	n int64
}

func newHashWriter() *hashWriter { return &hashWriter{h: sha256.New()} }

func (w *hashWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return w.h.Write(p)
}

func (w *hashWriter) sum() string { return fmt.Sprintf("%x (%d bytes)", w.h.Sum(nil), w.n) }

// longOutputs runs the readings of every command on the session at p and
// returns what each printed (hashed) and allocated.
func longOutputs(t *testing.T, p string) (map[string]string, map[string]uint64) {
	t.Helper()
	out := map[string]string{}
	alloc := map[string]uint64{}
	open := func() *Session {
		s, err := Format{}.Open(sessfmt.Ref{Path: p}, sessfmt.OpenOptions{})
		require.NoError(t, err)
		return s.(*Session)
	}
	run := func(name string, fn func(w io.Writer)) {
		hw := newHashWriter()
		bw := bufio.NewWriterSize(hw, 1<<16)
		alloc[name] = memtest.Allocated(func() { fn(bw) })
		require.NoError(t, bw.Flush())
		out[name] = hw.sum()
	}
	for _, full := range []bool{false, true} {
		o := render.TranscriptOptions{Styles: render.Plain(), Full: full}
		run(fmt.Sprintf("show full=%v", full), func(w io.Writer) {
			s := open()
			defer s.Close()
			require.NoError(t, s.Transcript(sessfmt.ContextOptions{}, refShowSink{&showSink{w: w, o: o}}))
		})
	}
	// A sink that takes no references gets every text held.
	out["show (no references)"] = func() string {
		hw := newHashWriter()
		s := open()
		defer s.Close()
		require.NoError(t, s.Transcript(sessfmt.ContextOptions{}, &showSink{w: hw, o: render.TranscriptOptions{Styles: render.Plain()}}))
		return hw.sum()
	}()
	for _, sent := range []bool{false, true} {
		run(fmt.Sprintf("show --json sent=%v", sent), func(w io.Writer) {
			s := open()
			defer s.Close()
			require.NoError(t, s.WriteContextJSON(w, sessfmt.ContextOptions{SentOnly: sent}))
		})
	}
	for _, format := range []string{"markdown", "html"} {
		run("export "+format, func(w io.Writer) {
			s := open()
			defer s.Close()
			d, err := export.Collect(s, sessfmt.ContextOptions{})
			require.NoError(t, err)
			if format == "html" {
				require.NoError(t, export.HTML(w, d, export.Options{}))
			} else {
				require.NoError(t, export.Markdown(w, d, export.Options{}))
			}
		})
	}
	run("check", func(w io.Writer) {
		s := open()
		defer s.Close()
		ps, err := s.Check(sessfmt.CheckOptions{})
		require.NoError(t, err)
		json.NewEncoder(w).Encode(ps)
	})
	run("list", func(w io.Writer) {
		s := open()
		defer s.Close()
		json.NewEncoder(w).Encode(s.Meta())
		json.NewEncoder(w).Encode(s.ListMeta())
		fmt.Fprintln(w, s.File.Title(), s.File.FirstPrompt())
		info, err := ListInfo(p)
		require.NoError(t, err)
		info.MTime = info.MTime.UTC()
		json.NewEncoder(w).Encode(info)
	})
	run("tree", func(w io.Writer) {
		s := open()
		defer s.Close()
		for ln := 1; ln <= 4; ln++ {
			fmt.Fprintln(w, s.File.Preview(ln, 200), s.File.Preview(ln, 20))
		}
		v, err := s.TreeView()
		require.NoError(t, err)
		if v.Close != nil {
			defer v.Close()
		}
	})
	m, err := search.Compile("needle", search.Options{})
	require.NoError(t, err)
	for _, first := range []bool{false, true} {
		run(fmt.Sprintf("search first=%v", first), func(w io.Writer) {
			cfg := search.Config{Matcher: m, Kinds: sessfmt.TextAll, Workers: 1, FirstOnly: first,
				Open: func(ref sessfmt.Ref) (sessfmt.Session, error) { return Format{}.Open(ref, sessfmt.OpenOptions{}) }}
			if first && !keepLongLines {
				// search -l reads the file line by line (LineTexts), the
				// long line elided; held: the first hit of the session.
				cfg.Format = func(string) sessfmt.Format { return Format{} }
			}
			err := search.Run(cfg, []search.Target{{Ref: sessfmt.Ref{Format: "claude", Path: p}, Agent: "claude", ID: "x", Title: "t"}}, func(r *search.Result) error {
				require.NoError(t, r.Err)
				for _, h := range r.Hits {
					if first {
						h.OnPath = false // not known without opening the session
					}
					json.NewEncoder(w).Encode(h)
				}
				return nil
			})
			require.NoError(t, err)
		})
	}
	return out, alloc
}

// TestLongLinesSameAsHeldAndNotHeld: a Claude Code session with one
// 64 MiB line of each kind (a tool result's string content, a tool
// result's text block, an assistant text, a thinking block, a user's
// string content that is the first prompt) prints the same bytes in show
// (folded and --full; to a sink without references too), show --json
// (and --sent), export markdown and html, check, list (Meta, ListMeta,
// the title, ListInfo), tree's previews and search (every hit, and the
// first only) whether the long line is read elided or held
// (keepLongLines), and each reading allocates a few MiB, not the line:
// before, 200 MiB and more each. A tool call whose input is the long
// string is read whole by show, export and search (a placeholder inside
// the arguments' JSON cannot be a reference), by design; show --json,
// check, list and tree do not hold it.
func TestLongLinesSameAsHeldAndNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 64 MiB files")
	}
	const size = 64 << 20
	heldByDesign := func(kind, name string) bool {
		return kind == "input" && (strings.HasPrefix(name, "show full") || strings.HasPrefix(name, "export") || strings.HasPrefix(name, "search"))
	}
	for _, kind := range append(longKinds, "input") {
		t.Run(kind, func(t *testing.T) {
			p := writeLongClaude(t, t.TempDir(), kind, size, func(w *bufio.Writer, n int) { longJSON(w, n, "first line of the "+kind) })
			got, alloc := longOutputs(t, p)
			defer func() { keepLongLines = false }()
			keepLongLines = true
			want, held := longOutputs(t, p)
			keepLongLines = false
			for name, w := range want {
				assert.Equal(t, w, got[name], "%s: %s differs from the held reading", kind, name)
				if name == "show (no references)" {
					continue
				}
				t.Logf("%s: %s allocated %.1f MiB (held: %.1f MiB), printed %s", kind, name, float64(alloc[name])/(1<<20), float64(held[name])/(1<<20), got[name])
				if heldByDesign(kind, name) {
					assert.Greater(t, alloc[name], uint64(size), "%s: %s was expected to read the line whole", kind, name)
					continue
				}
				assert.Less(t, alloc[name], uint64(16<<20), "%s: %s holds the long line", kind, name)
			}
		})
	}
}

// TestLongLinesEdgeCases: lines just over jsonl.LongLine whose long
// strings test what the readings decide from the text (the first prompt's
// command and bash tags, the interrupt marker, white-space only texts,
// a preview's first line far away, a text with no newline, a long tool
// input, a long id, an image) print the same in every command, elided or
// held.
func TestLongLinesEdgeCases(t *testing.T) {
	if testing.Short() {
		t.Skip("writes files of several MiB")
	}
	size := jsonl.LongLine + 1000
	fill := func(w *bufio.Writer, n int, s string) {
		for k := 0; k < n; k += len(s) {
			w.WriteString(s)
		}
	}
	cases := map[string]func(w *bufio.Writer, n int){
		"command": func(w *bufio.Writer, n int) {
			w.WriteString(`"  <command-name>  /run\n`)
			fill(w, 300, "x é")
			fill(w, n, `\n  y  `)
			w.WriteString(` </command-name>"`)
		},
		"bash": func(w *bufio.Writer, n int) {
			w.WriteString(`"\n<bash-input>ls -la`)
			fill(w, n, ` \u00a0\r\n`)
			w.WriteString(`x</bash-input> more"`)
		},
		"interrupted": func(w *bufio.Writer, n int) {
			w.WriteString(`"[Request interrupted by user`)
			fill(w, n, ` z`)
			w.WriteString(`"`)
		},
		"blank": func(w *bufio.Writer, n int) {
			w.WriteString(`"`)
			fill(w, n, ` \n\t\u00a0\u2028`)
			w.WriteString(`"`)
		},
		"spaces-then-text": func(w *bufio.Writer, n int) {
			w.WriteString(`"`)
			fill(w, n, ` \n\t`)
			w.WriteString(`the text \u00a0 "`)
		},
		"one-line": func(w *bufio.Writer, n int) {
			w.WriteString(`"`)
			fill(w, n, `word \u00a0`)
			w.WriteString(`\u00a0 \u00a0"`)
		},
		"trailing-nbsp": func(w *bufio.Writer, n int) {
			w.WriteString(`"short`)
			fill(w, n, `\u00a0`)
			w.WriteString(`"`)
		},
		"lt-start": func(w *bufio.Writer, n int) {
			w.WriteString(`"<b>bold</b> `)
			fill(w, n, `text\r\n`)
			w.WriteString(`"`)
		},
		"plain": func(w *bufio.Writer, n int) {
			w.WriteString(`"`)
			fill(w, n, "plain text \xff\xe2\x82 no escapes ")
			w.WriteString(`"`)
		},
		"invalid-escaped": func(w *bufio.Writer, n int) {
			w.WriteString(`"`)
			fill(w, n, "bytes \xff\xe2\x82 and \\ud800 \\n ")
			w.WriteString(`"`)
		},
	}
	for name, long := range cases {
		// the first prompt, an assistant text, a tool result's string, a
		// tool call's input (read whole by show and export, by design)
		for _, kind := range []string{"user", "text", "result-string", "input"} {
			t.Run(name+"/"+kind, func(t *testing.T) {
				p := writeLongClaude(t, t.TempDir(), kind, size, long)
				got, _ := longOutputs(t, p)
				defer func() { keepLongLines = false }()
				keepLongLines = true
				want, _ := longOutputs(t, p)
				keepLongLines = false
				for c, w := range want {
					assert.Equal(t, w, got[c], "%s: differs from the held reading", c)
				}
			})
		}
	}
}

// TestDecodeStringLooseIsFastjson: jsonl.DecodeStringLoose gives
// fastjson's reading of a string (what the held lines give), in any
// chunking of the pieces read.
func TestDecodeStringLooseIsFastjson(t *testing.T) {
	for _, raw := range []string{
		`"plain"`, `"a\nb\"c\\d\/e\u00e9\t"`, `"\ud83d\ude00 pair"`, `"\ud800 lone"`, `"\udc00\u0041 low then A"`,
		`"\ud800\ud800 two highs"`, `"end \ud800"`, `"\ud800\n"`, "\"bytes \xff\xe2\x82 \\n kept\"", `"\u2028\u0000"`,
	} {
		var p fastjson.Parser
		v, err := p.Parse(`{"s":` + raw + `}`)
		require.NoError(t, err, raw)
		want := string(v.GetStringBytes("s"))
		var got bytes.Buffer
		require.NoError(t, jsonl.DecodeStringLoose(strings.NewReader(raw), func(b []byte) error { got.Write(b); return nil }), raw)
		assert.Equal(t, want, got.String(), raw)
		// one byte at a time
		got.Reset()
		require.NoError(t, jsonl.DecodeStringLoose(iotest.OneByteReader(strings.NewReader(raw)), func(b []byte) error { got.Write(b); return nil }), raw)
		assert.Equal(t, want, got.String(), raw)
	}
}

// TestLongLineChainHeld: Chain's turns hold a long line's text and JSON
// as the held reading gives them.
func TestLongLineChainHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a file of several MiB")
	}
	defer func() { keepLongLines = false }()
	for _, kind := range []string{"user", "result-string"} {
		p := writeLongClaude(t, t.TempDir(), kind, jsonl.LongLine+1000, func(w *bufio.Writer, n int) { longJSON(w, n, "chain") })
		chain := func() []Turn {
			f, err := Open(p)
			require.NoError(t, err)
			defer f.Close()
			ts, _, err := f.Chain("", false)
			require.NoError(t, err)
			return ts
		}
		got := chain()
		keepLongLines = true
		want := chain()
		keepLongLines = false
		require.Equal(t, len(want), len(got))
		for i := range want {
			assert.Equal(t, want[i].Blocks, got[i].Blocks, "%s: turn %d", kind, i)
			assert.Equal(t, want[i].Content, got[i].Content, "%s: turn %d", kind, i)
		}
	}
}

// countSink counts the messages a Transcript gives.
type countSink int

func (c *countSink) Header([]string) error        { return nil }
func (c *countSink) Message(*model.Message) error { *c++; return nil }

// TestCountMessagesSameAsTranscript: CountMessages (list's verdict) is the
// number of messages Transcript gives, on every parity case and on long
// lines of each kind (where it allocates a few MiB).
func TestCountMessagesSameAsTranscript(t *testing.T) {
	var paths []string
	for _, c := range loadParityCases(t) {
		paths = append(paths, filepath.Join(parityDir, "cases", c.Name, c.Session+".jsonl"))
	}
	if !testing.Short() {
		for _, kind := range longKinds {
			paths = append(paths, writeLongClaude(t, t.TempDir(), kind, jsonl.LongLine+1000, func(w *bufio.Writer, n int) { longJSON(w, n, "count") }))
		}
	}
	require.NotEmpty(t, paths)
	for _, p := range paths {
		open := func() *Session {
			s, err := Format{}.Open(sessfmt.Ref{Path: p}, sessfmt.OpenOptions{})
			require.NoError(t, err)
			return s.(*Session)
		}
		s := open()
		var want countSink
		werr := s.Transcript(sessfmt.ContextOptions{}, &want)
		s.Close()
		s = open()
		var n int
		var err error
		a := memtest.Allocated(func() { n, err = s.CountMessages() })
		s.Close()
		assert.Equal(t, int(want), n, p)
		assert.Equal(t, werr != nil, err != nil, p)
		if s.File.Size > jsonl.LongLine {
			assert.Less(t, a, uint64(8<<20), "%s: counting holds the long line", p)
		}
	}
}
