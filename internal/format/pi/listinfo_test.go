package pi

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listingFile is testdata/pi/parity/v152/listing-*.json: what pi 1.5.2's
// SessionManager.listAll computed for each file (see the README there).
type listingFile struct {
	Dir      string `json:"dir"`
	Sessions []struct {
		File              string  `json:"file"`
		ID                any     `json:"id"`
		Cwd               string  `json:"cwd"`
		Name              *string `json:"name"`
		ParentSessionPath *string `json:"parentSessionPath"`
		Created           *string `json:"created"`
		Modified          string  `json:"modified"`
		MessageCount      int     `json:"messageCount"`
		FirstMessage      string  `json:"firstMessage"`
	} `json:"sessions"`
	Skipped []string `json:"skipped"`
}

// TestListInfoParity compares with pi 1.5.2's SessionManager.listAll on the
// 0.73.1 fixtures and on 1.5.2's own (testdata/pi/parity/v152/listing-*.json).
func TestListInfoParity(t *testing.T) {
	base := filepath.Join("..", "..", "..", "testdata", "pi", "parity")
	for _, l := range []struct{ name, dir string }{
		{"v152/listing-0731-sessions.json", "sessions"},
		{"v152/listing-0731-damaged.json", "damaged"},
		{"v152/listing-sessions.json", "v152/sessions"},
		{"v152/listing-hand.json", "v152/hand"},
	} {
		b, err := os.ReadFile(filepath.Join(base, l.name))
		require.NoError(t, err)
		var lf listingFile
		require.NoError(t, json.Unmarshal(b, &lf))
		lf.Dir = l.dir
		require.NotEmpty(t, lf.Sessions)
		for _, want := range lf.Sessions {
			t.Run(lf.Dir+"/"+want.File, func(t *testing.T) {
				li, err := ReadListInfo(filepath.Join(base, lf.Dir, want.File))
				require.NoError(t, err)
				require.True(t, li.HasHeader, "pi lists this file, so it has a header")
				if s, ok := want.ID.(string); ok {
					assert.Equal(t, s, li.ID)
					assert.True(t, li.ValidHeader)
				} else {
					assert.False(t, li.ValidHeader, "id %v is not a string", want.ID)
					assert.Equal(t, 1, li.Problems[problem.MissingHeader])
				}
				assert.Equal(t, want.Cwd, li.Cwd)
				wantName := ""
				if want.Name != nil {
					wantName = *want.Name
				}
				assert.Equal(t, wantName, li.Name)
				wantParent := ""
				if want.ParentSessionPath != nil {
					wantParent = *want.ParentSessionPath
				}
				assert.Equal(t, wantParent, li.ParentSession)
				if want.Created != nil {
					assert.Equal(t, *want.Created, isoMillis(li.Created))
				} else {
					assert.True(t, li.Created.IsZero())
				}
				if !li.Created.IsZero() || li.Messages > 0 {
					assert.Equal(t, want.Modified, isoMillis(li.Modified))
				}
				assert.Equal(t, want.MessageCount, li.Messages)
				wantFirst := want.FirstMessage
				if wantFirst == "(no messages)" {
					wantFirst = ""
				}
				wantFirst = clipText(wantFirst, MaxFirstMessage)
				assert.Equal(t, wantFirst, li.FirstMessage)
			})
		}
		for _, f := range lf.Skipped {
			// pi leaves these out of its list; sessctl lists them and says why.
			li, err := ReadListInfo(filepath.Join(base, lf.Dir, f))
			require.NoError(t, err)
			if li.Problems[CodeListingFails] > 0 {
				assert.True(t, li.ValidHeader, "%s: only pi's picker fails on it", f)
				continue
			}
			assert.False(t, li.HasHeader, "%s: pi skips it", f)
			assert.Equal(t, 1, li.Problems[problem.MissingHeader], f)
		}
	}
}

func isoMillis(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func TestListInfoProblemsAndOmp(t *testing.T) {
	slot := `{"type":"title","v":1,"title":"slot title","updatedAt":"2026-01-01T00:00:00Z","pad":"`
	slot += strings.Repeat(" ", 255-len(slot)-2) + `"}`
	require.Len(t, slot, 255)
	lines := []string{
		slot,
		`{"type":"session","version":3,"id":"0197aaaa-0000-7000-8000-000000000001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w/p","title":"header title"}`,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"image"},{"type":"text","text":"hi"},{"type":"text","text":"there"}],"timestamp":1767225601000}}`,
		`garbage`,
		`{"type":"message","id":"a2","parentId":"zz","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[],"timestamp":1767225602000}}`,
		"\x00\x00\x00",
		`42`,
		`{"type":"mode_change","id":"a3","parentId":"a2","timestamp":"2026-01-01T00:00:03.000Z","mode":"plan"}`,
		`{"type":"message","id":"a4","parentId":"a3","message":{"role":"user","content":"x"`,
	}
	li, err := ScanListInfo(strings.NewReader(strings.Join(lines, "\n")), "/x/y.jsonl")
	require.NoError(t, err)
	assert.Equal(t, "slot title", li.Name)
	assert.Equal(t, DialectOmp, li.Dialect)
	assert.Equal(t, "hi there", li.FirstMessage)
	assert.Equal(t, 2, li.Messages)
	assert.Equal(t, 4, li.Entries) // two messages, mode_change, 42
	assert.Equal(t, map[string]int{
		problem.MalformedLine: 1, problem.NULRun: 1, problem.NonObject: 1,
		problem.TornTail: 1, problem.Orphan: 1,
	}, li.Problems)
	assert.Equal(t, 5, li.ProblemCount())
	assert.Equal(t, "2026-01-01T00:00:02.000Z", isoMillis(li.Modified))
	assert.Equal(t, "2026-01-01T00:00:00.000Z", isoMillis(li.Created))
}

func TestListInfoEmptyAndHeaderOnly(t *testing.T) {
	li, err := ScanListInfo(strings.NewReader(""), "a.jsonl")
	require.NoError(t, err)
	assert.False(t, li.HasHeader)
	assert.Equal(t, map[string]int{problem.MissingHeader: 1}, li.Problems)
	assert.True(t, li.Modified.IsZero())

	li, err = ScanListInfo(strings.NewReader(`{"type":"session","id":"s","timestamp":"2026-02-03T04:05:06.789Z","cwd":"/p"}`+"\n"), "a.jsonl")
	require.NoError(t, err)
	assert.True(t, li.ValidHeader)
	assert.Nil(t, li.Problems)
	assert.Equal(t, 0, li.Entries)
	assert.Equal(t, "2026-02-03T04:05:06.789Z", isoMillis(li.Modified), "no messages: header time")
}

func TestClipText(t *testing.T) {
	assert.Equal(t, "abc", clipText("abc", 3))
	assert.Equal(t, "ab…", clipText("abcd", 2))
	assert.Equal(t, "a…", clipText("aé", 2), "never cuts inside a rune")
}

// FuzzValidJSON checks the listing's fast validator against encoding/json
// (strict RFC 8259, as JSON.parse), within the nesting limit. (fastjson,
// which the jsonl reader uses, accepts raw control characters in strings
// that contain escapes; JSON.parse and this validator reject them.)
func FuzzValidJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `[1,2,{"b":"c\n"}]`, `{"a":"\u00e9\ud800"}`, `{"a":tru}`, `{"a":01}`, `{"a":1.}`,
		`{"a":-0.5e+3}`, `{"a":"x` + "\t" + `"}`, `{"a" : [ ] , "b" : { } }`, `"s"`, `42`, `null`, `{"a":"\x"}`, `{"a":1}{"b":2}`,
		`{"a":"` + strings.Repeat("abcdefgh", 5) + `\"` + strings.Repeat("z", 17) + `"}`, strings.Repeat("[", 301) + strings.Repeat("]", 301),
		`{"type":"message","message":{"role":"user","content":"hi","timestamp":1}}`, `{"a":1,}`, `{,}`, `{"a"}`, `-`, `1e`, `{"\u0061":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if bytes.IndexByte(b, 0) >= 0 || bytes.IndexByte(b, '\n') >= 0 {
			return // NUL runs and newlines are split off before validation
		}
		if bytes.Count(b, []byte("["))+bytes.Count(b, []byte("{")) > maxDepth {
			return
		}
		got := classify(&validator{}, b, true)
		if len(bytes.Trim(b, " \t\r\n")) == 0 {
			require.Equal(t, jsonl.Blank, got)
			return
		}
		require.Equal(t, json.Valid(b), got != jsonl.Malformed, "%q: %s", b, got)
		if got != jsonl.Malformed {
			require.Equal(t, jsonl.Classify(b, false, true).String(), got.String(), "%q", b)
		}
	})
}

// benchSession builds a pi session of about n bytes in memory: turns of a
// user prompt, an assistant reply with a tool call and a tool result, with
// escapes and non-ASCII text as real sessions have.
func benchSession(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":3,"id":"019a0000-0000-7000-8000-000000000001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w/p"}` + "\n")
	text := strings.Repeat(`func main() {\n\tfmt.Println(\"héllo\")\n}\n`, 40)
	parent := "null"
	for i := 0; b.Len() < n; i++ {
		id := func(k int) string {
			return `"` + strings.Repeat("0", 4) + string(rune('a'+k%26)) + string(rune('a'+(i/26)%26)) + string(rune('a'+i%26)) + `x"`
		}
		for k, line := range []string{
			`{"type":"message","id":%s,"parentId":%s,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"` + text + `"}],"timestamp":1767225601000}}`,
			`{"type":"message","id":%s,"parentId":%s,"timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"go test ./..."}}],"api":"x","provider":"p","model":"m","usage":{"input":1200,"output":34,"cacheRead":0,"cacheWrite":0,"totalTokens":1234,"cost":{"input":0.0036,"output":0.00051,"total":0.00411}},"stopReason":"toolUse","timestamp":1767225602000}}`,
			`{"type":"message","id":%s,"parentId":%s,"timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"toolResult","toolCallId":"t1","toolName":"bash","content":[{"type":"text","text":"` + text + text + `"}],"isError":false,"timestamp":1767225603000}}`,
		} {
			me := id(k)
			b.WriteString(strings.Replace(strings.Replace(line, "%s", me, 1), "%s", parent, 1))
			b.WriteByte('\n')
			parent = me
		}
	}
	return b.Bytes()
}

func BenchmarkScanListInfo(b *testing.B) {
	data := benchSession(8 << 20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		li, err := ScanListInfo(bytes.NewReader(data), "x.jsonl")
		if err != nil || li.Messages == 0 || li.ProblemCount() != 0 {
			b.Fatal(err, li.Messages, li.Problems)
		}
	}
}

// BenchmarkReaderPass is the same input through the jsonl reader (fastjson
// parse + validate of every line), for comparison.
func BenchmarkReaderPass(b *testing.B) {
	data := benchSession(8 << 20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		rd := jsonl.NewReader(bytes.NewReader(data))
		n := 0
		for rd.Next() {
			if rd.Record().Kind == jsonl.Object {
				n++
			}
		}
		if n == 0 {
			b.Fatal("no objects")
		}
	}
}

// TestListInfoAgreesWithIndex checks that the listing's one-pass summary
// counts what the full index (Open, used by show, tree and check) sees, on
// every pi, oh-my-pi and xcsh parity fixture and every damaged pi fixture:
// entries, message entries, and the
// line-level and orphan problems.
func TestListInfoAgreesWithIndex(t *testing.T) {
	var files []string
	for _, dir := range []string{"pi/parity/sessions", "pi/parity/damaged", "omp/parity/sessions", "xcsh/parity/sessions"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "..", "testdata", filepath.FromSlash(dir), "*.jsonl"))
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.Greater(t, len(files), 150)
	codes := []string{problem.TornTail, problem.MalformedLine, problem.NULRun, problem.NonObject, problem.Orphan}
	for _, p := range files {
		li, err := ReadListInfo(p)
		require.NoError(t, err)
		f, err := Open(p, Options{})
		require.NoError(t, err)
		msgs := 0
		for i := range f.Entries {
			if f.Entries[i].Type() == "message" {
				msgs++
			}
		}
		assert.Equal(t, len(f.Entries), li.Entries, "%s entries", p)
		assert.Equal(t, msgs, li.Messages, "%s messages", p)
		assert.Equal(t, f.Header != nil, li.ValidHeader, "%s header", p)
		if f.Header != nil {
			assert.Equal(t, f.Header.ID, li.ID, p)
			assert.Equal(t, f.Header.Cwd, li.Cwd, p)
		}
		assert.Equal(t, f.Dialect, li.Dialect, p)
		for _, c := range codes {
			n := 0
			for _, pr := range f.Problems {
				if pr.Code == c {
					n++
				}
			}
			assert.Equal(t, n, li.Problems[c], "%s %s", p, c)
		}
	}
}

// FuzzScanListInfo feeds arbitrary bytes to the listing scan: it must not
// fail or panic, and its counts must stay consistent.
func FuzzScanListInfo(f *testing.F) {
	f.Add([]byte(`{"type":"session","id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}` + "\n" +
		`{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"hi","timestamp":1}}` + "\n"))
	f.Add([]byte(`{"type":"title","v":1,"title":"t","updatedAt":"x","pad":" "}` + "\n" + `{"type":"session","id":"s"}` + "\n" + `{"type":"session_info","id":"b","parentId":"zz","name":" n "}`))
	f.Add([]byte("\xef\xbb\xbf{\"type\":\"session\",\"id\":1}\r\n42\nnull\n\x00\x00\n{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"\\ud800\"}]}}\n{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		li, err := ScanListInfo(bytes.NewReader(b), "x.jsonl")
		require.NoError(t, err)
		assert.LessOrEqual(t, li.Messages, li.Entries)
		if !li.ValidHeader {
			assert.Equal(t, 1, li.Problems[problem.MissingHeader])
		}
		for c, n := range li.Problems {
			assert.Positive(t, n, c)
		}
	})
}
