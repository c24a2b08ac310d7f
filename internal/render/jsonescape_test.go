package render

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// hostile holds what a terminal acts on: CSI as a C1 control, a
// right-to-left override, an isolate, DEL.
const hostile = "a\u009b31mb\u202ec\u2066d\x7fe"

func rawTerminalChars(s string) []string {
	var found []string
	for _, r := range s {
		if r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			found = append(found, string(r))
		}
	}
	return found
}

func TestEscapeJSONForTerminal(t *testing.T) {
	in, _ := json.Marshal(map[string]string{"text": hostile, "path": "/tmp/\u202egnp.exe"})
	out := EscapeJSONForTerminal(in)
	if raw := rawTerminalChars(string(out)); len(raw) != 0 {
		t.Fatalf("raw characters left: %q in %s", raw, out)
	}
	for _, want := range []string{`\u009b`, `\u202e`, `\u2066`, `\u007f`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("%s missing in %s", want, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["text"] != hostile || back["path"] != "/tmp/\u202egnp.exe" {
		t.Fatalf("escaped JSON does not decode to the same values: %v %q", err, back)
	}
	plain := []byte(`{"a":"héllo — ✓ 日本","b":[1,2]}` + "\n")
	if got := EscapeJSONForTerminal(plain); !bytes.Equal(got, plain) {
		t.Errorf("safe JSON changed: %s", got)
	}
	if got := EscapeJSONForTerminal([]byte("\"a\xffb\x1b\"")); string(got) != `"a\ufffdb\u001b"` {
		t.Errorf("invalid UTF-8 / raw C0: %s", got)
	}
}

// TestJSONOnTerminalEscapes (issue 11.8): the shared JSON writers escape on
// a terminal (pretty) and leave piped output as it is.
func TestJSONOnTerminalEscapes(t *testing.T) {
	v := map[string]string{"text": hostile}
	writers := map[string]func(w io.Writer, tty bool) error{
		"JSON": func(w io.Writer, tty bool) error { return JSON(w, v, tty) },
		"JSONStream": func(w io.Writer, tty bool) error {
			return JSONStream(w, tty, func(w io.Writer) error { return json.NewEncoder(w).Encode(v) })
		},
	}
	for name, write := range writers {
		var term, pipe bytes.Buffer
		if err := write(&term, true); err != nil {
			t.Fatal(err)
		}
		if raw := rawTerminalChars(term.String()); len(raw) != 0 {
			t.Errorf("%s on a terminal writes raw %q: %s", name, raw, term.String())
		}
		if err := write(&pipe, false); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(pipe.String(), "\u009b") || !strings.Contains(pipe.String(), "\u202e") {
			t.Errorf("%s piped: characters were changed: %s", name, pipe.String())
		}
	}
}

// TestTerminalJSONWriterSplits: however the text is cut into writes, the
// stream comes out as EscapeJSONForTerminal of the whole.
func TestTerminalJSONWriterSplits(t *testing.T) {
	in, _ := json.Marshal(map[string]string{"a": hostile + " é ✓ 😀 \u202e"})
	in = append(in, "\xff\n"...)
	want := EscapeJSONForTerminal(in)
	for step := 1; step <= 7; step++ {
		var out bytes.Buffer
		w := NewTerminalJSONWriter(&out)
		for i := 0; i < len(in); i += step {
			if _, err := w.Write(in[i:min(i+step, len(in))]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Fatalf("step %d:\n got %q\nwant %q", step, out.Bytes(), want)
		}
	}
}

// WriteJSONLine escapes a C1 control and a bidi override for a terminal
// only, and ends each value with one newline.
func TestWriteJSONLine(t *testing.T) {
	v := map[string]string{"t": "a\u0085b\u202e"}
	var tty, pipe bytes.Buffer
	if err := WriteJSONLine(&tty, v, true); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSONLine(&pipe, v, false); err != nil {
		t.Fatal(err)
	}
	if got, want := tty.String(), `{"t":"a\u0085b\u202e"}`+"\n"; got != want {
		t.Fatalf("tty: %q, want %q", got, want)
	}
	if got, want := pipe.String(), "{\"t\":\"a\u0085b\u202e\"}\n"; got != want {
		t.Fatalf("pipe: %q, want %q", got, want)
	}
}
