package pi

import (
	"bytes"
	"io"
	"os"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/valyala/fastjson"
)

// usageEvents is sessfmt.LineUsageEvents for pi-family files without
// holding a long line: the file is read with a capture-mode jsonl.Reader
// (validation only) whose lines longer than usageLongLine are validated
// as they are read and not kept; such a line is then read back elided
// (jsonl.Elider: string values over jsonl.ElidedMin bytes replaced by
// placeholders) and event reads the small copy. Usage never prints a
// message's text; when a string it does give (the model, a tool name)
// holds a placeholder, the line is read whole instead, as before.
func usageEvents(path string, event func(*fastjson.Value) (sessfmt.UsageEvent, bool), fn func(sessfmt.UsageEvent) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := jsonl.NewReader(f)
	r.SetCapture(nil)
	r.SetLongLines(usageLongLine)
	var (
		p   fastjson.Parser
		el  *jsonl.Elider
		buf []byte
	)
	for r.Next() {
		rec := r.Record()
		if rec.Kind != jsonl.Object {
			continue
		}
		var ev sessfmt.UsageEvent
		ok := false
		if !rec.Streamed {
			v, err := p.ParseBytes(rec.Body())
			if err != nil {
				continue
			}
			ev, ok = event(v)
		} else {
			if el == nil {
				el = jsonl.NewElider(jsonl.ElidedMin)
			}
			off, n := rec.Offset, rec.Len()
			if rec.BOM {
				off, n = off+int64(len(jsonl.BOM)), n-int64(len(jsonl.BOM))
			}
			el.Refs = el.Refs[:0]
			buf, err = el.Elide(buf[:0], io.NewSectionReader(f, off, n), off)
			if err != nil {
				return err
			}
			v, err := p.ParseBytes(bytes.TrimRight(buf, "\r\n"))
			if err != nil {
				continue
			}
			ev, ok = event(v)
			if ok && usageHolds(ev) {
				// A string usage gives was left out: read the line whole.
				line, err := jsonl.ReadLineAt(f, off, n)
				if err != nil {
					return err
				}
				v, err := p.ParseBytes(line)
				if err != nil {
					continue
				}
				ev, ok = event(v)
			}
		}
		if !ok {
			continue
		}
		if err := fn(ev); err != nil {
			return err
		}
	}
	return r.Err()
}

// usageLongLine is the length over which usageEvents reads a line elided:
// the reader's buffer size, so that a long line costs one buffer of
// allocation, not the several grown copies of up to jsonl.LongLine bytes
// that keeping it until then takes.
const usageLongLine = jsonl.BufferSize

// usageHolds reports whether a string ev gives holds an Elider placeholder
// (the strings event only compares, like type and role, are a placeholder
// exactly when the stored string is longer than any value they are
// compared with, so the comparison comes out the same).
func usageHolds(ev sessfmt.UsageEvent) bool {
	if jsonl.Holds(ev.Model) || jsonl.Holds(ev.Key) {
		return true
	}
	for _, t := range ev.Tools {
		if jsonl.Holds(t) {
			return true
		}
	}
	return false
}
