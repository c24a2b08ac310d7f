package secrets

import (
	"bytes"
	"encoding/json"

	"github.com/sessctl/sessctl/internal/model"
)

// RedactJSON replaces the secrets in every string of a JSON value (keys
// included) and returns the value re-encoded (compact, numbers kept as
// written) with the count. A value that does not parse is redacted as text.
func (det *Detector) RedactJSON(raw []byte) ([]byte, int) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		s, n := det.Redact(string(raw))
		return []byte(s), n
	}
	n := 0
	var walk func(any) any
	walk = func(x any) any {
		switch t := x.(type) {
		case string:
			s, k := det.Redact(t)
			n += k
			return s
		case []any:
			for i := range t {
				t[i] = walk(t[i])
			}
			return t
		case map[string]any:
			out := make(map[string]any, len(t))
			for key, val := range t {
				k2, k := det.Redact(key)
				n += k
				out[k2] = walk(val)
			}
			return out
		}
		return x
	}
	v = walk(v)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		s, k := det.Redact(string(raw))
		return []byte(s), k
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), n
}

// RedactMessage redacts a message's text, tool arguments, tool names and
// notes in place and says how many secrets it replaced.
func (det *Detector) RedactMessage(m *model.Message) int {
	n := 0
	r := func(s *string) {
		if *s != "" {
			out, k := det.Redact(*s)
			*s, n = out, n+k
		}
	}
	for i := range m.Notes {
		r(&m.Notes[i])
	}
	for i := range m.Blocks {
		r(&m.Blocks[i].Text)
		r(&m.Blocks[i].Args)
		r(&m.Blocks[i].Name)
	}
	return n
}

// RedactLines redacts each string of lines in place and counts.
func (det *Detector) RedactLines(lines []string) int {
	n := 0
	for i := range lines {
		out, k := det.Redact(lines[i])
		lines[i], n = out, n+k
	}
	return n
}
