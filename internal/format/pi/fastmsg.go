package pi

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/valyala/fastjson"
)

// fastMessage gives toModel's Role, Time and Blocks (the fields the text
// capability reads: of a block, its Kind, Text, Name and Args) for the
// common messages, read from the already parsed
// record instead of encoding the message again and decoding it with
// encoding/json. It covers user and assistant messages, tool results and
// every role without a case of its own in toModel, when the record is in
// the plain shape agents write; ok is false whenever it cannot promise
// toModel's result, and the caller then calls toModel. Promised:
//
//   - line, the record msg was parsed from, is valid JSON for encoding/json
//     (validJSON; so fastjson, which is laxer, read the same values, and
//     every string is a valid JSON string);
//   - every key of the message and its blocks that encoding/json would match
//     to a field (it ignores case) is that field's exact name, once, with a
//     value encoding/json stores in the field without an error (else
//     toModel's or contentBlocks' Unmarshal fails: a different result);
//   - the values that are not plain (a null timestamp or arguments, a number
//     for exitCode or tokensBefore, files) are left to toModel;
//   - strings are decoded with encoding/json's rules (invalid UTF-8 becomes
//     U+FFFD), except a content that is a string, which contentBlocks
//     decodes with jsonl.String.
//
// FuzzFastMessage holds the two equal.
func fastMessage(msg *fastjson.Value, line []byte) (m model.Message, ok bool) {
	o := msg.GetObject()
	if o == nil || !validJSON(line) {
		return m, false
	}
	d := decoders.Get().(*fastDecoder)
	defer d.release()
	var fields [len(messageFields)]*fastjson.Value
	if !d.fields(o, messageFields[:], messageKinds[:], fields[:]) {
		return m, false
	}
	if v := fields[fRole]; v != nil {
		if m.Role, ok = d.str(v); !ok {
			return m, false
		}
	}
	switch m.Role {
	case "compactionSummary", "branchSummary", "custom", "hookMessage", "bashExecution", "pythonExecution", "fileMention":
		return m, false
	}
	if ts := fields[fTimestamp]; ts != nil {
		if d.kind(ts) == 'n' {
			return m, false
		}
		if ms, ok := jsTimeMs(ts.MarshalTo(d.buf[:0])); ok {
			m.Time = time.UnixMilli(ms)
		}
	}
	blocks, ok := d.content(fields[fContent])
	if !ok {
		return m, false
	}
	if m.Role != "toolResult" {
		m.Blocks = blocks
		return m, true
	}
	bl := model.Block{Kind: "toolResult"}
	if v := fields[fToolName]; v != nil {
		if bl.Name, ok = d.str(v); !ok {
			return m, false
		}
	}
	var texts []string
	for _, b := range blocks {
		if b.Kind == "text" {
			texts = append(texts, b.Text)
		}
	}
	bl.Text = strings.Join(texts, "\n")
	m.Blocks = append(m.Blocks, bl)
	for _, b := range blocks {
		if b.Kind != "text" {
			m.Blocks = append(m.Blocks, b)
		}
	}
	return m, true
}

// The kinds of value a field takes without an Unmarshal error (that
// fastMessage handles).
const (
	kindAny    = iota // any value (raw fields)
	kindString        // a string or null
	kindBool          // true, false or null
	kindNull          // only null here (numbers and arrays: toModel)
)

// messageFields are the JSON names of toModel's message struct.
var messageFields = [...]string{"role", "content", "timestamp", "provider", "model", "toolName", "toolCallId", "isError",
	"stopReason", "errorMessage", "command", "output", "exitCode", "excludeFromContext", "customType", "display",
	"summary", "tokensBefore", "fromId", "shortSummary", "code", "cancelled", "files"}

var messageKinds = [...]int{kindString, kindAny, kindAny, kindString, kindString, kindString, kindString, kindBool,
	kindString, kindString, kindString, kindString, kindNull, kindBool, kindString, kindBool,
	kindAny, kindNull, kindString, kindString, kindString, kindBool, kindNull}

const (
	fRole      = 0
	fContent   = 1
	fTimestamp = 2
	fToolName  = 5
)

// blockFields are the JSON names of contentBlocks' block struct.
var blockFields = [...]string{"type", "text", "thinking", "id", "name", "arguments", "data", "mimeType"}

var blockKinds = [...]int{kindString, kindString, kindString, kindString, kindString, kindAny, kindString, kindString}

const (
	bType      = 0
	bText      = 1
	bThinking  = 2
	bID        = 3
	bName      = 4
	bArguments = 5
	bData      = 6
	bMimeType  = 7
)

type fastDecoder struct {
	buf []byte
}

// decoders keep the scratch buffers of fastMessage from message to message
// (no value it returns points into one: strings are copied out).
var decoders = sync.Pool{New: func() any { return new(fastDecoder) }}

// release gives d back to decoders; a buffer grown past 64 KiB by a long
// value is dropped, not kept.
func (d *fastDecoder) release() {
	if cap(d.buf) > 64<<10 {
		d.buf = nil
	}
	decoders.Put(d)
}

// kind tells a value's type by the first byte of its JSON: '{', '[', '"',
// 't', 'f', 'n' or a number's first byte. fastjson's Value.Type is not
// used: on a string it unescapes the value in place (best effort, not
// encoding/json's rules), after which MarshalTo no longer gives the raw
// string that str and content decode; nor are Object and Array, whose
// errors call it.
func (d *fastDecoder) kind(v *fastjson.Value) byte {
	if v.GetObject() != nil {
		return '{'
	}
	if v.GetArray() != nil {
		return '['
	}
	d.buf = v.MarshalTo(d.buf[:0])
	if len(d.buf) == 0 {
		return 0
	}
	return d.buf[0]
}

// fields finds the struct fields among o's keys (into out, by index of
// names); false when encoding/json could read o otherwise or fail on it.
func (d *fastDecoder) fields(o *fastjson.Object, names []string, kinds []int, out []*fastjson.Value) bool {
	ok := true
	o.Visit(func(key []byte, v *fastjson.Value) {
		if !ok {
			return
		}
		i := -1
		for j, n := range names {
			if string(key) == n {
				i = j
				break
			}
		}
		if i < 0 {
			// encoding/json matches a key to a field ignoring case (with
			// Unicode folds): only an ASCII key unlike every name is safe.
			for _, c := range key {
				if c >= utf8.RuneSelf {
					ok = false
					return
				}
			}
			for _, n := range names {
				if strings.EqualFold(string(key), n) {
					ok = false
					return
				}
			}
			return
		}
		if out[i] != nil { // a repeated field: the last wins there
			ok = false
			return
		}
		out[i] = v
		switch k := d.kind(v); kinds[i] {
		case kindString:
			ok = k == '"' || k == 'n'
		case kindBool:
			ok = k == 't' || k == 'f' || k == 'n'
		case kindNull:
			ok = k == 'n'
		}
	})
	return ok
}

// str decodes a string or null field as encoding/json stores it in a Go
// string.
func (d *fastDecoder) str(v *fastjson.Value) (string, bool) {
	d.buf = v.MarshalTo(d.buf[:0]) // the raw string, quotes included (see kind)
	raw := d.buf
	if string(raw) == "null" {
		return "", true
	}
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	if in := raw[1 : len(raw)-1]; bytes.IndexByte(in, '\\') < 0 {
		if utf8.Valid(in) {
			return string(in), true
		}
		// jsonl.String keeps invalid UTF-8 of a string without escapes;
		// encoding/json makes it U+FFFD.
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return s, true
	}
	// With escapes, jsonl.String decodes as encoding/json does (invalid
	// UTF-8 and lone surrogates become U+FFFD; FuzzUnescape).
	return jsonl.String(raw)
}

// scanners validate records for validJSON.
var scanners = sync.Pool{New: func() any { return jsonl.NewScanner(nil) }}

// validJSON reports whether encoding/json takes line for valid JSON, with
// jsonl.Scanner (FuzzValidJSON holds the two equal, below its nesting
// limit; a deeper record is reported invalid). A line holding a NUL byte is
// reported invalid (outside that fuzz test's inputs).
func validJSON(line []byte) bool {
	if bytes.IndexByte(line, 0) >= 0 {
		return false
	}
	s := scanners.Get().(*jsonl.Scanner)
	ok := s.Scan(line)
	scanners.Put(s)
	return ok
}

// content is contentBlocks for a content value (nil: absent).
func (d *fastDecoder) content(c *fastjson.Value) ([]model.Block, bool) {
	if c == nil {
		return nil, true
	}
	switch d.kind(c) {
	case 'n':
		return nil, true
	case '"':
		d.buf = c.MarshalTo(d.buf[:0])
		s, ok := jsonl.String(d.buf)
		if !ok {
			return nil, false
		}
		return []model.Block{{Kind: "text", Text: s}}, true
	case '[':
	default:
		return nil, false
	}
	arr := c.GetArray()
	out := make([]model.Block, 0, len(arr))
	for _, e := range arr {
		if d.kind(e) == 'n' {
			out = append(out, model.Block{Kind: "other"})
			continue
		}
		o := e.GetObject()
		if o == nil {
			return nil, false
		}
		var f [len(blockFields)]*fastjson.Value
		if !d.fields(o, blockFields[:], blockKinds[:], f[:]) {
			return nil, false
		}
		// Only the strings a text is made of are decoded (all are
		// strings or null: fields checked that).
		ok := true
		get := func(i int) string {
			if f[i] == nil {
				return ""
			}
			s, sok := d.str(f[i])
			if !sok {
				ok = false
			}
			return s
		}
		var b model.Block
		switch typ := get(bType); typ {
		case "text":
			b = model.Block{Kind: "text", Text: get(bText)}
		case "thinking":
			b = model.Block{Kind: "thinking", Text: get(bThinking)}
		case "toolCall":
			b = model.Block{Kind: "toolCall", Name: get(bName)}
			if a := f[bArguments]; a != nil {
				if d.kind(a) == 'n' {
					return nil, false
				}
				b.Args = compactJSON(a.MarshalTo(nil))
			}
		case "image":
			b = model.Block{Kind: "image"}
		default:
			b = model.Block{Kind: "other", Name: typ}
		}
		if !ok {
			return nil, false
		}
		out = append(out, b)
	}
	return out, true
}
