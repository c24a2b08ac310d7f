package repair

// Line salvage shared by the pi and Claude Code repairs: a BOM, blank
// lines, objects glued on one line, a torn fragment before a whole entry.

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

func trimBOM(rec *jsonl.Record) []byte {
	if rec.BOM {
		return append([]byte(nil), rec.Body()...)
	}
	return nil
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// splitGlued splits `{…}{…}` lines (an append that lost its newline) at
// top-level value boundaries, when every part is a valid object.
func splitGlued(fp *fastjson.Parser, b []byte) [][]byte {
	dec := json.NewDecoder(bytes.NewReader(b))
	var parts [][]byte
	var prev int64
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == io.EOF {
			break
		} else if err != nil {
			return nil
		}
		end := dec.InputOffset()
		part := bytes.TrimSpace(b[prev:end])
		prev = end
		val, err := fp.ParseBytes(part)
		if err != nil || val.Type() != fastjson.TypeObject {
			return nil
		}
		parts = append(parts, append([]byte(nil), part...))
	}
	if len(parts) < 2 {
		return nil
	}
	return parts
}

// salvageTail finds a torn fragment followed by a complete entry on the same
// line (a crash mid-write, then the next append): it returns the fragment and
// the complete entry.
func salvageTailWith(fp *fastjson.Parser, b []byte, re *regexp.Regexp, isEntry func(*fastjson.Value) bool) (head, tail []byte) {
	idx := re.FindAllIndex(b, -1)
	for k := len(idx) - 1; k >= 0; k-- {
		at := idx[k][0]
		if at == 0 {
			break
		}
		val, err := fp.ParseBytes(b[at:])
		if err == nil && isEntry(val) {
			return append([]byte(nil), b[:at]...), append([]byte(nil), b[at:]...)
		}
	}
	return nil, nil
}

// isEntryShape says whether a parsed value looks like a whole session entry
// (string type and id and a parentId member), not like a content block or
// tool call cut out of one: a torn line can end right after such a block.
func isEntryShape(v *fastjson.Value) bool {
	if v == nil || v.Type() != fastjson.TypeObject {
		return false
	}
	t, id := jsonl.Get(v, "type"), jsonl.Get(v, "id")
	return t != nil && t.Type() == fastjson.TypeString && id != nil && id.Type() == fastjson.TypeString && jsonl.Get(v, "parentId") != nil
}
