// Package jsonedit makes byte-preserving edits to one JSON object (one JSONL
// line): read the raw bytes of a member's value, replace a value in place,
// append a new member, delete a member, and do the same along a path of
// nested objects. Every byte outside the edited member is kept exactly,
// including whitespace, escapes, number spellings, key order and a trailing
// "\n" or "\r\n".
//
// Semantics follow JavaScript, whose agents wrote these files:
//   - duplicate keys: JSON.parse keeps the last value, so Get returns the
//     last occurrence; Set replaces the value of every occurrence (so that
//     first-wins and last-wins decoders both see the new value), and Delete
//     removes every occurrence;
//   - a key that is not present is appended after the last member (where
//     JavaScript puts a property added to a parsed object);
//   - keys are compared after unescaping ("\u0069d" is "id").
//
// Input must be a single valid JSON object, optionally surrounded by JSON
// whitespace (space, tab, CR, LF); anything else yields ErrNotObject. Values
// passed to Set must be valid JSON (ErrBadValue otherwise). Inputs are never
// modified; results are fresh slices.
package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/sessctl/sessctl/internal/jsonl"
)

var (
	// ErrNotObject: the line (or a value on a path) is not a JSON object.
	ErrNotObject = errors.New("jsonedit: not a JSON object")
	// ErrBadValue: the value given to Set is not valid JSON.
	ErrBadValue = errors.New("jsonedit: value is not valid JSON")
	// ErrEmptyPath: a path needs at least one key.
	ErrEmptyPath = errors.New("jsonedit: empty path")
)

// Member is one "key": value pair of an object, as byte offsets into the
// slice that was parsed.
type Member struct {
	Key                string // unescaped key
	KeyStart, KeyEnd   int    // the key token including its quotes
	ValueStart, ValEnd int    // the value token
}

// Object is a parsed object: the offsets of its braces and its members.
type Object struct {
	Open, Close int // offsets of '{' and the matching '}'
	Members     []Member
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// The raw-span primitives are jsonl's: one implementation for reading and
// editing lines.
var (
	skipWS     = jsonl.SkipSpace
	skipString = jsonl.SkipString
	skipValue  = jsonl.SkipValue
)

func decodeKey(raw []byte) string {
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return string(inner)
	}
	return s
}

// Parse validates b as one JSON object (surrounding whitespace allowed) and
// returns its members.
func Parse(b []byte) (Object, error) {
	start := skipWS(b, 0)
	if start >= len(b) || b[start] != '{' || !json.Valid(b) {
		return Object{}, ErrNotObject
	}
	return members(b, start), nil
}

// members scans the object at b[open] (known valid).
func members(b []byte, open int) Object {
	o := Object{Open: open}
	i := skipWS(b, open+1)
	if b[i] == '}' {
		o.Close = i
		return o
	}
	for {
		ks := i
		ke := skipString(b, ks)
		i = skipWS(b, ke)
		i = skipWS(b, i+1) // ':'
		vs := i
		ve := skipValue(b, vs)
		o.Members = append(o.Members, Member{Key: decodeKey(b[ks:ke]), KeyStart: ks, KeyEnd: ke, ValueStart: vs, ValEnd: ve})
		i = skipWS(b, ve)
		if b[i] == '}' {
			o.Close = i
			return o
		}
		i = skipWS(b, i+1) // ','
	}
}

// Lookup returns the last member named key, if any.
func (o Object) Lookup(key string) (Member, bool) {
	for i := len(o.Members) - 1; i >= 0; i-- {
		if o.Members[i].Key == key {
			return o.Members[i], true
		}
	}
	return Member{}, false
}

// Span returns the offsets of the raw value of key (last occurrence).
func Span(line []byte, key string) (start, end int, ok bool, err error) {
	o, err := Parse(line)
	if err != nil {
		return 0, 0, false, err
	}
	m, ok := o.Lookup(key)
	return m.ValueStart, m.ValEnd, ok, nil
}

// Get returns the raw bytes of the value of key (last occurrence), a
// subslice of line.
func Get(line []byte, key string) ([]byte, bool, error) {
	s, e, ok, err := Span(line, key)
	if err != nil || !ok {
		return nil, false, err
	}
	return line[s:e:e], true, nil
}

// GetPath follows path through nested objects and returns the raw value.
// A missing key anywhere gives ok=false; a non-object on the way gives
// ok=false too (JavaScript would read undefined).
func GetPath(line []byte, path ...string) ([]byte, bool, error) {
	if len(path) == 0 {
		return nil, false, ErrEmptyPath
	}
	o, err := Parse(line)
	if err != nil {
		return nil, false, err
	}
	cur := line
	for depth, k := range path {
		m, ok := o.Lookup(k)
		if !ok {
			return nil, false, nil
		}
		if depth == len(path)-1 {
			return cur[m.ValueStart:m.ValEnd:m.ValEnd], true, nil
		}
		if cur[m.ValueStart] != '{' {
			return nil, false, nil
		}
		o = members(cur, m.ValueStart)
	}
	return nil, false, nil
}

// String returns the decoded string value of key, ok=false if absent or
// not a string.
func String(line []byte, key string) (string, bool, error) {
	raw, ok, err := Get(line, key)
	if err != nil || !ok || raw[0] != '"' {
		return "", false, err
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, err
	}
	return s, true, nil
}

// EncodeKey returns key as a JSON string token (no HTML escaping).
func EncodeKey(key string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(key)
	return bytes.TrimRight(buf.Bytes(), "\n")
}

func checkValue(value []byte) error {
	if len(value) == 0 || !json.Valid(value) || isWS(value[0]) || isWS(value[len(value)-1]) {
		return fmt.Errorf("%w: %q", ErrBadValue, truncate(value))
	}
	return nil
}

func truncate(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}

// setIn sets key in the object o of b (replace every occurrence, or
// append). value is valid JSON.
func setIn(b []byte, o Object, key string, value []byte) []byte {
	var hits []Member
	for _, m := range o.Members {
		if m.Key == key {
			hits = append(hits, m)
		}
	}
	if len(hits) == 0 {
		var ins []byte
		at := o.Close
		if len(o.Members) > 0 {
			at = o.Members[len(o.Members)-1].ValEnd
			ins = append(ins, ',')
		}
		ins = append(ins, EncodeKey(key)...)
		ins = append(ins, ':')
		ins = append(ins, value...)
		out := make([]byte, 0, len(b)+len(ins))
		out = append(out, b[:at]...)
		out = append(out, ins...)
		return append(out, b[at:]...)
	}
	out := make([]byte, 0, len(b)+len(value))
	prev := 0
	for _, m := range hits {
		out = append(out, b[prev:m.ValueStart]...)
		out = append(out, value...)
		prev = m.ValEnd
	}
	return append(out, b[prev:]...)
}

// Set sets top-level key to the raw JSON value: every existing occurrence
// has its value replaced in place; a missing key is appended as
// `,"key":value` after the last member.
func Set(line []byte, key string, value []byte) ([]byte, error) {
	if err := checkValue(value); err != nil {
		return nil, err
	}
	o, err := Parse(line)
	if err != nil {
		return nil, err
	}
	return setIn(line, o, key, value), nil
}

// SetPath sets the key at the end of path, e.g. SetPath(line, v, "message",
// "role"). Every object on the way must exist; when an intermediate key
// occurs more than once, every occurrence whose value is an object is
// edited, and the last occurrence (the one JSON.parse keeps) must be an
// object, else ErrNotObject.
func SetPath(line []byte, value []byte, path ...string) ([]byte, error) {
	if len(path) == 0 {
		return nil, ErrEmptyPath
	}
	if err := checkValue(value); err != nil {
		return nil, err
	}
	o, err := Parse(line)
	if err != nil {
		return nil, err
	}
	return setPath(line, o, value, path)
}

func setPath(b []byte, o Object, value []byte, path []string) ([]byte, error) {
	if len(path) == 1 {
		return setIn(b, o, path[0], value), nil
	}
	last, ok := o.Lookup(path[0])
	if !ok || b[last.ValueStart] != '{' {
		return nil, fmt.Errorf("%w: %q", ErrNotObject, path[0])
	}
	out := make([]byte, 0, len(b)+len(value))
	prev := 0
	for _, m := range o.Members {
		if m.Key != path[0] || b[m.ValueStart] != '{' {
			continue
		}
		sub := b[m.ValueStart:m.ValEnd]
		edited, err := setPath(sub, members(sub, 0), value, path[1:])
		if err != nil {
			return nil, err
		}
		out = append(out, b[prev:m.ValueStart]...)
		out = append(out, edited...)
		prev = m.ValEnd
	}
	return append(out, b[prev:]...), nil
}

// Delete removes every occurrence of top-level key together with its
// separating comma. It reports whether anything was removed.
func Delete(line []byte, key string) ([]byte, bool, error) {
	o, err := Parse(line)
	if err != nil {
		return nil, false, err
	}
	out, n := deleteIn(line, o, key)
	return out, n > 0, nil
}

func deleteIn(b []byte, o Object, key string) ([]byte, int) {
	ms := o.Members
	var kept []int
	for i, m := range ms {
		if m.Key != key {
			kept = append(kept, i)
		}
	}
	n := len(ms) - len(kept)
	if n == 0 {
		return append([]byte(nil), b...), 0
	}
	// Keep: everything up to the first member (brace and leading
	// whitespace); each kept member's bytes; between two kept members, the
	// separator that followed the first of them; and everything after the
	// last member (trailing whitespace, '}' and the rest of the line).
	out := make([]byte, 0, len(b))
	out = append(out, b[:ms[0].KeyStart]...)
	for j, k := range kept {
		out = append(out, b[ms[k].KeyStart:ms[k].ValEnd]...)
		if j < len(kept)-1 {
			out = append(out, b[ms[k].ValEnd:ms[k+1].KeyStart]...)
		}
	}
	out = append(out, b[ms[len(ms)-1].ValEnd:]...)
	return out, n
}

// Editor applies several edits to one object, validating the input once
// (each package-level function validates its whole input, which costs a
// full pass per call on long lines).
type Editor struct {
	b []byte
	o Object
}

// NewEditor validates line as one JSON object (ErrNotObject otherwise).
// The editor does not modify line; Bytes returns the result.
func NewEditor(line []byte) (*Editor, error) {
	o, err := Parse(line)
	if err != nil {
		return nil, err
	}
	return &Editor{b: line, o: o}, nil
}

func (e *Editor) reset(b []byte) {
	e.b = b
	e.o = members(b, e.o.Open)
}

// Bytes returns the current bytes (line itself if nothing was edited).
func (e *Editor) Bytes() []byte { return e.b }

// Object returns the current member offsets.
func (e *Editor) Object() Object { return e.o }

// Get returns the raw value of key (last occurrence).
func (e *Editor) Get(key string) ([]byte, bool) {
	m, ok := e.o.Lookup(key)
	if !ok {
		return nil, false
	}
	return e.b[m.ValueStart:m.ValEnd:m.ValEnd], true
}

// String returns the decoded string value of key, ok=false if absent or
// not a string.
func (e *Editor) String(key string) (string, bool) {
	raw, ok := e.Get(key)
	if !ok || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// GetPath is GetPath on the current bytes.
func (e *Editor) GetPath(path ...string) ([]byte, bool) {
	o, cur := e.o, e.b
	for depth, k := range path {
		m, ok := o.Lookup(k)
		if !ok {
			return nil, false
		}
		if depth == len(path)-1 {
			return cur[m.ValueStart:m.ValEnd:m.ValEnd], true
		}
		if cur[m.ValueStart] != '{' {
			return nil, false
		}
		o = members(cur, m.ValueStart)
	}
	return nil, false
}

// Set is Set on the current bytes.
func (e *Editor) Set(key string, value []byte) error {
	if err := checkValue(value); err != nil {
		return err
	}
	e.reset(setIn(e.b, e.o, key, value))
	return nil
}

// SetPath is SetPath on the current bytes.
func (e *Editor) SetPath(value []byte, path ...string) error {
	if len(path) == 0 {
		return ErrEmptyPath
	}
	if err := checkValue(value); err != nil {
		return err
	}
	b, err := setPath(e.b, e.o, value, path)
	if err != nil {
		return err
	}
	e.reset(b)
	return nil
}

// Delete is Delete on the current bytes; it reports whether a member was
// removed.
func (e *Editor) Delete(key string) bool {
	b, n := deleteIn(e.b, e.o, key)
	if n == 0 {
		return false
	}
	e.reset(b)
	return true
}
