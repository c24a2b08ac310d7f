package pi

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/sessctl/sessctl/internal/jsonl"
)

// The second walk over an assistant message's content that inspect made
// before the scan captured the content's elements (Capture.Elems); kept
// here as the reference FuzzToolCallCapture holds the captures to.

// eachToolCall calls fn with the raw id and name of each element of the
// JSON array content whose "type" is "toolCall" (as jsonl.Elements with
// sub(b, "type"), sub(b, "id") and sub(b, "name") on each element, but
// reading the array once, in one loop: the texts it walks over are most of
// a file, and the jsonl helpers' calls per value made it a fifth slower).
// content is valid JSON (or nil); it stops at anything else.
func eachToolCall(c []byte, fn func(id, name []byte)) {
	n := len(c)
	i := 0
	for i < n && isSpace(c[i]) {
		i++
	}
	if i >= n || c[i] != '[' {
		return
	}
	i++
	for {
		for i < n && (isSpace(c[i]) || c[i] == ',') {
			i++
		}
		if i >= n || c[i] == ']' {
			return
		}
		if c[i] != '{' {
			if i = skipJSON(c, i); i < 0 {
				return
			}
			continue
		}
		i++
		var typ, id, name []byte
		for {
			for i < n && (isSpace(c[i]) || c[i] == ',') {
				i++
			}
			if i >= n {
				return
			}
			if c[i] == '}' {
				i++
				break
			}
			if c[i] != '"' {
				return
			}
			kEnd := stringEnd(c, i)
			if kEnd < 0 {
				return
			}
			key := c[i+1 : kEnd-1]
			i = kEnd
			for i < n && isSpace(c[i]) {
				i++
			}
			if i >= n || c[i] != ':' {
				return
			}
			i++
			for i < n && isSpace(c[i]) {
				i++
			}
			vEnd := skipJSON(c, i)
			if vEnd < 0 {
				return
			}
			// A raw key holding an escape is longer than the word it
			// spells (an escape takes at least 6 bytes for a letter).
			switch {
			case string(key) == "type":
				typ = c[i:vEnd]
			case string(key) == "id":
				id = c[i:vEnd]
			case string(key) == "name":
				name = c[i:vEnd]
			case len(key) > 4 && bytes.IndexByte(key, '\\') >= 0:
				switch {
				case keyIs(key, "type"):
					typ = c[i:vEnd]
				case keyIs(key, "id"):
					id = c[i:vEnd]
				case keyIs(key, "name"):
					name = c[i:vEnd]
				}
			}
			i = vEnd
		}
		if t := word(typ); string(t) == "toolCall" {
			fn(id, name)
		}
	}
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// stringEnd returns the index just past the JSON string starting at
// c[i] == '"', or -1 when it is not closed.
func stringEnd(c []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(c[i:], '"')
		if j < 0 {
			return -1
		}
		q := i + j
		k := q - 1 // the opening quote stops this before it leaves the string
		for c[k] == '\\' {
			k--
		}
		i = q + 1
		if (q-1-k)%2 == 0 {
			return i
		}
	}
}

// skipJSON returns the index just past the JSON value starting at c[i]
// (valid JSON), or -1 when it is cut short.
func skipJSON(c []byte, i int) int {
	n := len(c)
	if i >= n {
		return -1
	}
	switch c[i] {
	case '"':
		return stringEnd(c, i)
	case '{', '[':
		depth := 0
		for i < n {
			switch c[i] {
			case '"':
				if i = stringEnd(c, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	for i < n {
		switch c[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}

// keyIs compares a raw (escaped) member key with key.
func keyIs(raw []byte, key string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == key
	}
	s, ok := jsonl.String(append(append([]byte{'"'}, raw...), '"'))
	return ok && s == key
}

// FuzzToolCallCapture: the tool calls inspect stores from the scan's
// element captures are those the old second walk (eachToolCall) found in
// the final message's content, for any valid object line whose message
// is an assistant's.
func FuzzToolCallCapture(f *testing.F) {
	for _, s := range []string{
		`{"type":"message","id":"a","message":{"role":"assistant","stopReason":"error","content":[{"type":"toolCall","id":"c1","name":"bash"},{"type":"text","text":"x"}]}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"tool\u0043all","i\u0064":"c\"2","name":"n","name":"m"},{"type":"toolCall","type":"text"},"s",[1],{}]}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"a"}],"content":[{"type":"toolCall","id":"b","arguments":{"type":"toolCall","id":"c"}}]}}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"a"}]},"message":{"role":"assistant","content":"x"}}`,
		`{"type":"message","message":{"role":"assistant","content":[[{"type":"toolCall","id":"n"}],{"name":"x","type":"toolCall","id":null}]}}`,
		` {"type" : "message" , "message" : { "content" : [ { "type" : "toolCall" , "name" : "a" } ] , "role" : "assistant" } } `,
		`{"type":"message","message":{"role":"assistant","content":{"type":"toolCall","id":"o"}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		s := jsonl.NewScanner(checkCaptured)
		if bytes.IndexByte(line, '\n') >= 0 || !s.Scan(line) || !s.IsObject() {
			return
		}
		typ := word(s.Top[capType])
		m := s.Top[capMessage]
		if string(typ) != "message" || len(m) == 0 || m[0] != '{' || string(word(s.Sub[subRole])) != "assistant" {
			return
		}
		var want []toolCall
		eachToolCall(s.Sub[subContent], func(id, name []byte) {
			a, _ := jsonl.String(id)
			b, _ := jsonl.String(name)
			want = append(want, toolCall{a, b})
		})
		rec := &jsonl.Record{Kind: jsonl.Object, Raw: line, Newline: true, Top: s.Top, Sub: s.Sub}
		b := &jsonl.Batch{}
		inspectFacts(rec, b)
		var got []toolCall
		if st := b.Aux.(*idHashes).facts; st != nil && len(st.facts) > 0 {
			c := &checkFacts{stores: []*factStore{st}}
			got = c.fact(&st.facts[0]).calls
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: tool calls from the captures %q, from the walk %q", line, got, want)
		}
		// A plain message line's captures are left out whole (the merge
		// reads none: needsNoCaptures); any other keeps its message's own.
		if (rec.Top == nil) != (rec.Sub == nil) || rec.Sub != nil && len(rec.Sub) != nCheckSub {
			t.Fatalf("%q: the record keeps %d Top and %d Sub captures, want none or %d Sub", line, len(rec.Top), len(rec.Sub), nCheckSub)
		}
	})
}
