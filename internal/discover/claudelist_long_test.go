package discover

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sessctl/sessctl/internal/memtest"
	"github.com/stretchr/testify/require"
)

// writeClaude writes the lines to a transcript in a temporary directory.
// A line is written as the concatenation of its parts (a part may be a
// huge run made by strings.Repeat; the file is written piece by piece).
func writeClaude(t *testing.T, lines ...[]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	fh, err := os.Create(path)
	require.NoError(t, err)
	w := bufio.NewWriterSize(fh, 1<<20)
	for _, parts := range lines {
		for _, p := range parts {
			_, err := w.WriteString(p)
			require.NoError(t, err)
		}
	}
	require.NoError(t, w.Flush())
	require.NoError(t, fh.Close())
	return path
}

// heldAndStreamed returns readClaudeInfo's summary of path with every line
// held (the reading before long lines were streamed) and with lines over
// longLine streamed, and what the streamed reading allocated.
func heldAndStreamed(t *testing.T, path string, longLine int) (held, streamed *claudeSummary, alloc uint64) {
	t.Helper()
	defer func(v int) { claudeLongLine = v }(claudeLongLine)
	claudeLongLine = 0
	held, err := readClaudeInfo(path)
	require.NoError(t, err)
	claudeLongLine = longLine
	alloc = memtest.Allocated(func() { streamed, err = readClaudeInfo(path) })
	require.NoError(t, err)
	return held, streamed, alloc
}

func TestReadClaudeInfoLongLineNotHeld(t *testing.T) {
	const size = 64 << 20
	huge := strings.Repeat("lorem ipsum \\\"dolor\\\" sit amet, caf\\u00e9 ", size/43)
	path := writeClaude(t,
		[]string{`{"type":"summary","summary":"s","leafUuid":"l"}` + "\n"},
		// a sidechain tool result: no prompt
		[]string{`{"type":"user","isSidechain":true,"cwd":"/w/p","timestamp":"2025-01-02T03:04:05.678Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"`, huge, `"}]}}` + "\n"},
		// the first prompt, one huge string after some white space
		[]string{`{"type":"user","isSidechain":true,"cwd":"/w/q","timestamp":"2025-01-02T03:04:06Z","message":{"role":"user","content":"  \n`, huge, `"}}` + "\n"},
		[]string{`{"type":"assistant","isSidechain":true,"timestamp":"2025-01-02T03:04:07Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}` + "\n"},
		[]string{"not json\n"},
	)
	held, streamed, alloc := heldAndStreamed(t, path, claudeLongLine)
	require.True(t, strings.HasPrefix(held.firstSidePrompt, "lorem ipsum \"dolor\" sit amet, café"), "held prompt %.40q", held.firstSidePrompt)
	require.Equal(t, 4, held.entries)
	require.Equal(t, "/w/p", held.cwd)
	if !reflect.DeepEqual(held, streamed) {
		t.Fatalf("streamed summary differs:\nheld     %+v\nstreamed %+v", *held, *streamed)
	}
	t.Logf("streamed reading of two %d MiB lines allocated %.1f MiB", size>>20, float64(alloc)/(1<<20))
	// The reader grows its line buffer to jsonl.LongLine before it streams
	// a line (about 10 MiB allocated per long line, not kept); the held
	// reading allocates several times the line.
	if alloc > size/2 {
		t.Fatalf("streamed reading allocated %d bytes for lines of %d bytes", alloc, size)
	}
}

// TestReadClaudeInfoLongLineEdges holds the streamed reading of lines just
// over the long-line limit equal to the held one on what readClaudeInfo
// reads of a left-out string: clipped, trimmed, skipped prompts, escapes,
// a long cwd, timestamp and type, and lines that are not objects.
func TestReadClaudeInfoLongLineEdges(t *testing.T) {
	const limit = 1 << 20
	long := func(s string) string { return strings.Repeat(s, (limit+len(s))/len(s)) }
	side := func(content string) []string {
		return []string{`{"type":"user","isSidechain":true,"timestamp":"2025-01-02T03:04:06Z","message":{"role":"user","content":`, content, "}}\n"}
	}
	str := func(s string) string { return `"` + s + `"` }
	prompt16k := strings.Repeat("é", 8191) + "ab" // byte 16384 is inside a rune after the clip
	cases := []struct {
		name  string
		lines [][]string
		want  string // the held prompt starts with it
	}{
		{"clip at rune", [][]string{side(str(prompt16k + long("x")))}, "éé"},
		{"clip exact then spaces", [][]string{side(str(" \\t" + strings.Repeat("a", 16384) + long(" ")))}, "aaa"},
		{"clip exact then space then text", [][]string{side(str(strings.Repeat("a", 16384) + long(" ") + "b"))}, "aaa"},
		{"short then spaces", [][]string{side(str("hi there" + long(" \\n\\t")))}, "hi there"},
		{"short then ideographic spaces", [][]string{side(str("hi" + long("\u3000")))}, "hi"},
		{"all spaces", [][]string{side(str(long(" "))), side(str("next"))}, "next"},
		{"command wrapper", [][]string{side(str("  <command-name>x" + long("y"))), side(str("after"))}, "after"},
		{"interrupted", [][]string{side(str("[Request interrupted" + long("y"))), side(str("after"))}, "after"},
		{"escapes", [][]string{side(str(`\ud83d\ude00 \ud800 x\u00e9\"` + long(`\\n`)))}, "😀"},
		{"invalid utf-8", [][]string{side(str("\xff\xfe" + long("\xe3\x80")))}, "\xff"},
		{"blocks", [][]string{side(`[{"type":"text","text":""},{"type":"text","text":"` + long("z") + `"},{"type":"text","text":"b"}]`)}, "zzz"},
		{"blocks tool result after", [][]string{side(`[{"type":"text","text":"` + long("z") + `"},{"type":"tool_result","content":"r"}]`), side(str("after"))}, "after"},
		{"long cwd", [][]string{{`{"type":"user","cwd":"`, long("/d"), `","message":{"content":"x"}}` + "\n"}}, ""},
		{"long fraction", [][]string{{`{"type":"user","timestamp":"2025-01-02T03:04:05.123456789`, long("7"), `Z","message":{"content":"x"}}` + "\n"}}, ""},
		{"long bad timestamp", [][]string{{`{"type":"user","timestamp":"2025-01-02T03:04:05Z`, long(" "), `","message":{"content":"x"}}` + "\n"}}, ""},
		{"long type", [][]string{{`{"type":"`, long("u"), `","message":{"content":"x"}}` + "\n"}}, ""},
		{"bom crlf", [][]string{{"\xef\xbb\xbf" + `{"type":"user","isSidechain":true,"message":{"content":"`, long("w"), `"}}` + "\r\n"}}, "www"},
		{"malformed", [][]string{{`{"type":"user","message":{"content":"`, long("w"), `"}` + "\n"}}, ""},
		{"non-object", [][]string{{`["`, long("w"), `"]` + "\n"}}, ""},
		{"nul run", [][]string{{`{"type":"user","message":{"content":"`, long("w"), "\x00\x00\n"}}, ""},
		{"torn tail", [][]string{side(str("a")), {`{"type":"user","message":{"content":"`, long("w")}}, "a"},
		{"object tail without newline", [][]string{{`{"type":"user","isSidechain":true,"message":{"content":"`, long("w"), `"}}`}}, "www"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			held, streamed, _ := heldAndStreamed(t, writeClaude(t, tc.lines...), limit)
			require.True(t, strings.HasPrefix(held.firstSidePrompt, tc.want), "held prompt %.40q", held.firstSidePrompt)
			if !reflect.DeepEqual(held, streamed) {
				t.Fatalf("streamed summary differs:\nheld     %+v\nstreamed %+v", *held, *streamed)
			}
		})
	}
}

// TestReadClaudeInfoDepthLimit holds the capture-mode reading of short
// lines (validated by jsonl's Scanner, then parsed) equal to the tree
// reading at the nesting limit, where the two validators could part.
func TestReadClaudeInfoDepthLimit(t *testing.T) {
	var lines [][]string
	for d := 296; d <= 304; d++ {
		// an entry whose message nests d levels in all
		lines = append(lines, []string{`{"type":"user","message":{"content":`, strings.Repeat("[", d-2), strings.Repeat("]", d-2), "}}\n"})
	}
	held, streamed, _ := heldAndStreamed(t, writeClaude(t, lines...), 1<<20)
	t.Logf("messages %d, problems %v", held.messages, held.problems)
	require.NotZero(t, held.messages)
	require.NotEmpty(t, held.problems, "no line went over the limit")
	if !reflect.DeepEqual(held, streamed) {
		t.Fatalf("capture-mode summary differs:\nheld     %+v\nstreamed %+v", *held, *streamed)
	}
}
