package pi

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/valyala/fastjson"
)

// textFields is what of a message the text capability reads.
type textFields struct {
	Role   string
	TimeMs int64
	Zero   bool
	Blocks []textBlock
}

type textBlock struct{ Kind, Text, Name, Args string }

func textFieldsOf(m model.Message) textFields {
	t := textFields{Role: m.Role, Zero: m.Time.IsZero()}
	if !t.Zero {
		t.TimeMs = m.Time.UnixMilli()
	}
	for _, b := range m.Blocks {
		tb := textBlock{Kind: b.Kind, Text: b.Text, Name: b.Name, Args: b.Args}
		if b.Kind == "image" || b.Kind == "other" {
			tb = textBlock{Kind: b.Kind} // no text; their other fields are not read
		}
		t.Blocks = append(t.Blocks, tb)
	}
	return t
}

// compareFast checks fastMessage against toModel on one record line; it
// reports whether the fast path was taken.
func compareFast(t *testing.T, line []byte) bool {
	t.Helper()
	var p fastjson.Parser
	v, err := p.ParseBytes(line)
	if err != nil {
		return false
	}
	msg := v.Get("message")
	if msg == nil {
		return false
	}
	fast, ok := fastMessage(msg, line)
	if !ok {
		return false
	}
	var p2 fastjson.Parser
	v2, err := p2.ParseBytes(line)
	if err != nil {
		t.Fatalf("second parse: %v", err)
	}
	want := textFieldsOf(toModel(v2.Get("message").MarshalTo(nil)))
	if got := textFieldsOf(fast); !reflect.DeepEqual(got, want) {
		t.Errorf("line %q:\nfast    %+v\ntoModel %+v", line, got, want)
	}
	return true
}

var fastMessageSeeds = []string{
	`{"role":"user","content":"hi \"there\"\n\u00e9","timestamp":1767225601000}`,
	`{"role":"user","content":[{"type":"text","text":"a\u2028b"}],"timestamp":"2026-01-01T00:00:01.000Z"}`,
	`{"role":"assistant","content":[{"type":"thinking","thinking":"hm","thinkingSignature":"x"},{"type":"text","text":"ok"},{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"ls -la", "n": 1.50}}],"provider":"p","model":"m","usage":{"input":1},"stopReason":"toolUse","timestamp":1767225603000}`,
	`{"role":"toolResult","toolCallId":"t1","toolName":"bash","content":[{"type":"text","text":"out"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":""}],"isError":false,"timestamp":1767225604000}`,
	`{"role":"toolResult","toolName":null,"content":"plain","timestamp":null}`,
	`{"role":"assistant","content":[null,{"type":"toolCall","name":"x"},{"type":"toolCall","name":"y","arguments":null}]}`,
	`{"Role":"user","content":"case"}`,
	`{"role":"user","role":"assistant","content":"twice"}`,
	`{"role":"user","content":"bad \ud800 surrogate","timestamp":-5.5}`,
	"{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"bad \xff utf8\"}]}",
	"{\"role\":\"user\",\"content\":\"bad \xff utf8 in a string content\"}",
	`{"role":"user","content":[{"type":"text","TEXT":"folded"}]}`,
	`{"role":"user","content":[{"type":"text","text":5}]}`,
	`{"role":"user","content":{"type":"text","text":"an object"}}`,
	`{"role":"user","content":[1,2]}`,
	`{"role":"bashExecution","command":"ls","output":"x","exitCode":0}`,
	`{"role":"custom","customType":"c","content":"hi","display":false}`,
	`{"role":5,"content":"x"}`,
	`{"role":"user","isError":"no","content":"x"}`,
	`{"role":"user","exitCode":1,"content":"x"}`,
	`{"role":"user","files":null,"content":"x","cancelled":null}`,
	`{"role":"user","ſtopReason":"x","content":"kelvin"}`,
	`{"role":"user","content":"x","timestamp":"2026-13-45"}`,
	`{"role":"user","content":"x","timestamp":true}`,
	`{"role":"user","content":[{"type":"toolCall","name":"n","arguments":"{\"a\": 1}"}]}`,
	`{"r\u006fle":"user","content":"escaped key"}`,
	`{"role":"user","content":"x", "timestamp" : 1e3 }`,
}

func messageLine(msg string) []byte {
	return []byte(`{"type":"message","id":"a","message":` + msg + `}`)
}

func TestFastMessageMatchesToModel(t *testing.T) {
	fast := 0
	for _, s := range fastMessageSeeds {
		if compareFast(t, messageLine(s)) {
			fast++
		}
	}
	if fast < 8 {
		t.Errorf("only %d of %d seeds took the fast path", fast, len(fastMessageSeeds))
	}
	// Fallbacks that must be taken (toModel decides these).
	for _, s := range []string{
		`{"Role":"user","content":"case"}`,
		`{"role":"user","role":"assistant","content":"twice"}`,
		`{"role":"user","content":[{"type":"text","text":5}]}`,
		`{"role":"bashExecution","command":"ls","output":"x","exitCode":0}`,
		`{"role":"user","ſtopReason":"x","content":"kelvin"}`,
		`{"role":"user","content":"x","timestamp":null}`,
	} {
		var p fastjson.Parser
		line := messageLine(s)
		v, err := p.ParseBytes(line)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := fastMessage(v.Get("message"), line); ok {
			t.Errorf("%s: fast path taken", s)
		}
	}
	// A record fastjson reads but encoding/json does not is left to toModel.
	line := []byte(`{"type":"message","message":{"role":"user","content":"bad \x escape"}}`)
	var p fastjson.Parser
	if v, err := p.ParseBytes(line); err == nil {
		if _, ok := fastMessage(v.Get("message"), line); ok {
			t.Error("invalid JSON took the fast path")
		}
	}
}

// Every message line of the repository's pi sessions gives the same texts
// both ways, and most take the fast path.
func TestFastMessageOnSessions(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/pi/*/*.jsonl")
	more, _ := filepath.Glob("../../../testdata/pi/*/*/*.jsonl")
	files = append(files, more...)
	corpus, _ := filepath.Glob("../../../../shared/corpus/pi*/*.jsonl")
	files = append(files, corpus...)
	if len(files) == 0 {
		t.Skip("no sample sessions")
	}
	lines, fast := 0, 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			line := append([]byte(nil), sc.Bytes()...)
			var p fastjson.Parser
			v, err := p.ParseBytes(line)
			if err != nil || string(v.GetStringBytes("type")) != "message" {
				continue
			}
			lines++
			if compareFast(t, line) {
				fast++
			}
		}
		fh.Close()
	}
	t.Logf("%d files, %d message lines, %d on the fast path", len(files), lines, fast)
	if lines == 0 || fast*2 < lines {
		t.Errorf("%d of %d message lines on the fast path", fast, lines)
	}
}

func FuzzFastMessage(f *testing.F) {
	for _, s := range fastMessageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		compareFast(t, messageLine(string(msg)))
	})
}
