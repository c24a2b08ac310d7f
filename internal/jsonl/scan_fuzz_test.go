package jsonl

import (
	"bytes"
	"encoding/json"
	"testing"
)

var fuzzCapture = &Capture{Top: []string{"type", "id", "parentId", "message"}, Sub: "message", SubKeys: []string{"role", "id"}}

// fuzzElemCapture captures too the type, id and name of the message
// content's object elements (Capture.Elems).
var fuzzElemCapture = &Capture{Top: []string{"type", "id", "parentId", "message"}, Sub: "message", SubKeys: []string{"role", "id", "content"},
	Elems: "content", ElemKeys: []string{"type", "id", "name"}}

// FuzzScanner checks the validating Scanner against encoding/json (as the
// reference for JSON.parse) and the Reader in capture mode against the
// Reader in default (fastjson) mode.
func FuzzScanner(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Add([]byte(`{"type":"message","id":"a","message":{"role":"user","id":"m1","role":"assistant"},"id":"b"}`))
	f.Add([]byte(`{"message":[1,2],"parentId":null,"type":7}`))
	f.Add([]byte(`{"a":-0.5e+10,"b":1E3,"c":"\u00e9\ud83d\ude00","d":[true,false,null,{}]}`))
	f.Add([]byte(`{"message":{"content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"id":2}},"s",{},{"i\u0064":"x","id":"y"}],"role":"assistant"}}`))
	f.Add([]byte(`{"message":{"content":[{"type":"a"}],"content":[[{"id":1}],{"name":null}]},"message":{"content":[{"type":"b"}]}}`))
	f.Add([]byte("{\n\"type\": \"x\"\n}"))
	f.Add([]byte(`[1,` + "\n" + `2]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		// A '\n' is rejected wherever it is (a Scanner scans one line of
		// JSON Lines): in a string it is invalid JSON too, and outside one
		// it ends the line.
		if bytes.IndexByte(data, '\n') >= 0 {
			if NewScanner(fuzzCapture).Scan(data) {
				t.Fatalf("Scan(%q) = true: a '\\n' was taken for white space", data)
			}
			return
		}
		// One line: the Scanner alone.
		if maxDepth(data) < 299 {
			s := NewScanner(fuzzCapture)
			ok := s.Scan(data)
			if ok != json.Valid(data) {
				t.Fatalf("Scan(%q) = %v, json.Valid = %v", data, ok, !ok)
			}
			// Behind 64 bytes of white space every string of the line is
			// scanned by the assembly scan (which wants a 64-byte window)
			// where the processor has it, ending where it ended.
			if padded := append(bytes.Repeat([]byte{' '}, 64), data...); NewScanner(fuzzCapture).Scan(padded) != ok {
				t.Fatalf("Scan of %q behind 64 spaces = %v, json.Valid = %v", data, !ok, ok)
			}
			if !ok {
				return
			}
			trimmed := bytes.TrimLeft(data, " \t\r\n")
			if s.IsObject() != (trimmed[0] == '{') {
				t.Fatalf("IsObject(%q) = %v", data, s.IsObject())
			}
			if !s.IsObject() {
				return
			}
			var top map[string]json.RawMessage
			if err := json.Unmarshal(data, &top); err != nil {
				t.Fatalf("valid object but Unmarshal fails: %v", err)
			}
			checkCaptured(t, data, "top", fuzzCapture.Top, s.Top, top)
			var sub map[string]json.RawMessage
			if raw, has := top[fuzzCapture.Sub]; has && len(raw) > 0 && raw[0] == '{' {
				if err := json.Unmarshal(raw, &sub); err != nil {
					t.Fatal(err)
				}
			}
			checkCaptured(t, data, "sub", fuzzCapture.SubKeys, s.Sub, sub)
			checkElems(t, data, top)
		}

		// Whole input: capture mode classifies every line as default mode does.
		type kv struct {
			kind Kind
			raw  string
		}
		read := func(capture bool) []kv {
			rd := NewReader(bytes.NewReader(data))
			if capture {
				rd.SetCapture(fuzzCapture)
			}
			var out []kv
			for rd.Next() {
				out = append(out, kv{rd.Record().Kind, string(rd.Record().Raw)})
			}
			return out
		}
		def, capt := read(false), read(true)
		if len(def) != len(capt) {
			t.Fatalf("%d records in default mode, %d in capture mode", len(def), len(capt))
		}
		for i := range def {
			if def[i] != capt[i] && maxDepth([]byte(def[i].raw)) < 299 {
				t.Fatalf("line %d %q: default %v, capture %v", i+1, def[i].raw, def[i].kind, capt[i].kind)
			}
		}
	})
}

// checkElems checks a Scanner capturing fuzzElemCapture on the valid
// object line data (top: encoding/json's members): its Top and SubKeys
// captures, and the ElemKeys captures of each object element of the
// content array, in order, against encoding/json's.
func checkElems(t *testing.T, data []byte, top map[string]json.RawMessage) {
	t.Helper()
	c := fuzzElemCapture
	s := NewScanner(c)
	if !s.Scan(data) || !s.IsObject() {
		t.Fatalf("Scan(%q) with element captures fails", data)
	}
	checkCaptured(t, data, "top", c.Top, s.Top, top)
	var sub map[string]json.RawMessage
	if raw, has := top[c.Sub]; has && len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &sub); err != nil {
			t.Fatal(err)
		}
	}
	nSub := len(c.SubKeys)
	if len(s.Sub) < nSub {
		t.Fatalf("%q: %d Sub captures", data, len(s.Sub))
	}
	checkCaptured(t, data, "sub", c.SubKeys, s.Sub[:nSub], sub)
	var elems []json.RawMessage
	if raw := sub[c.Elems]; len(raw) > 0 && raw[0] == '[' {
		if err := json.Unmarshal(raw, &elems); err != nil {
			t.Fatal(err)
		}
	}
	got, nk := s.Sub[nSub:], len(c.ElemKeys)
	for _, raw := range elems {
		if raw[0] != '{' {
			continue
		}
		var el map[string]json.RawMessage
		if err := json.Unmarshal(raw, &el); err != nil {
			t.Fatal(err)
		}
		if len(got) < nk {
			t.Fatalf("elem in %q: %d element captures left for element %s", data, len(got), raw)
		}
		checkCaptured(t, data, "elem", c.ElemKeys, got[:nk], el)
		got = got[nk:]
	}
	if len(got) != 0 {
		t.Fatalf("elem in %q: %d element captures too many", data, len(got))
	}
}

// checkCaptured compares captured raw member values with encoding/json's
// (last repeated key wins in both). Only keys whose unescaped form differs
// from their raw form could disagree in spelling, so values are compared
// after compacting both.
func checkCaptured(t *testing.T, line []byte, what string, keys []string, got [][]byte, want map[string]json.RawMessage) {
	t.Helper()
	if len(got) != len(keys) {
		t.Fatalf("%s: %d captures for %d keys", what, len(got), len(keys))
	}
	for i, k := range keys {
		w, has := want[k]
		if !has {
			if got[i] != nil {
				t.Fatalf("%s %q in %q: captured %q, encoding/json has no such member", what, k, line, got[i])
			}
			continue
		}
		var a, b bytes.Buffer
		if err := json.Compact(&a, got[i]); err != nil {
			t.Fatalf("%s %q in %q: captured %q is not a JSON value: %v", what, k, line, got[i], err)
		}
		_ = json.Compact(&b, w)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("%s %q in %q: captured %q, encoding/json %q", what, k, line, got[i], w)
		}
	}
}
