package pi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

// readStream indexes a file the way oh-my-pi and xcsh parse it: a stream of
// JSON values as Bun's JSONL.parseChunk returns them, driven by
// parseJsonlLenient (see testdata/omp/parity/SPEC.md §2.2).
func readStream(r io.Reader, path string, opts Options, d Dialect) (*File, error) {
	rd := newReader(path, opts, d)
	sc := newValueScanner(r)
	for sc.Next() {
		rd.take(sc.Record())
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return rd.finish(), nil
}

// validTitleSlot reports whether a first line is oh-my-pi's title slot:
// the whole first physical line is one JSON object with type "title", the
// number v 1, string title, updatedAt and pad, and source absent or
// "auto"/"user". The 256-byte length is not checked (omp does not either).
func validTitleSlot(rec *jsonl.Record) bool {
	if rec.Line != 1 || !rec.Newline || bytes.IndexByte(rec.Raw, '\n') >= 0 || rec.Value == nil {
		return false
	}
	v := rec.Value
	if t, ok := rec.StrOK("type"); !ok || t != "title" {
		return false
	}
	if n := jsonl.Get(v, "v"); n == nil || n.Type() != fastjson.TypeNumber || n.GetFloat64() != 1 {
		return false
	}
	for _, k := range []string{"title", "updatedAt", "pad"} {
		if _, ok := rec.StrOK(k); !ok {
			return false
		}
	}
	if s := jsonl.Get(v, "source"); s != nil {
		src, ok := rec.StrOK("source")
		if !ok || (src != "auto" && src != "user") {
			return false
		}
	}
	return true
}

// valueScanner yields the records Bun's lenient JSONL parsing sees, as
// jsonl.Records: one per value (spanning lines when the value does), one per
// blank line, and one per dropped line or line remainder (Malformed, NULRun
// or TornTail). Lines that hold exactly one valid value, the normal case, come
// straight from the line reader; only lines that do not parse alone are
// re-parsed as the start of a value that may continue on the next lines.
//
// Rules (Bun 1.4.5 parseChunk + omp's recovery loop):
//   - a value may span lines; after it only spaces, tabs and CR may follow on
//     its last line, anything else drops the rest of that line (the value
//     stays);
//   - a syntax error anywhere in a value drops the line the value starts on;
//     parsing resumes at the next line (so the tail of a broken multi-line
//     object is re-read line by line);
//   - a value still incomplete at the end of the input drops everything from
//     its first line on.
type valueScanner struct {
	lr      *jsonl.Reader
	parser  fastjson.Parser
	pending []srcLine // lines to read again before reading on
	out     []jsonl.Record
	rec     jsonl.Record
	fresh   bool // rec is lr's current record
	done    bool
	err     error
}

type srcLine struct {
	line int
	off  int64
	raw  []byte // without '\n'
	nl   bool
	bom  bool
	nul  bool
}

func newValueScanner(r io.Reader) *valueScanner {
	return &valueScanner{lr: jsonl.NewReader(r)}
}

// Record returns the current record, valid until the next call to Next.
func (s *valueScanner) Record() *jsonl.Record {
	if s.fresh {
		return s.lr.Record()
	}
	return &s.rec
}

// Err returns the first read error.
func (s *valueScanner) Err() error { return s.err }

// Next advances to the next record.
func (s *valueScanner) Next() bool {
	s.fresh = false
	if len(s.out) > 0 {
		return s.pop()
	}
	if s.done {
		return false
	}
	var ln srcLine
	if len(s.pending) > 0 {
		ln = s.pending[0]
		s.pending = s.pending[1:]
		if k := jsonl.Classify(ln.raw, ln.bom, ln.nl); k == jsonl.Blank || k == jsonl.Object || k == jsonl.NonObject {
			s.out = append(s.out, lineRecord(ln, k))
			return s.pop()
		}
	} else {
		if !s.lr.Next() {
			s.err = s.lr.Err()
			s.done = true
			return false
		}
		r := s.lr.Record()
		switch r.Kind {
		case jsonl.Blank, jsonl.Object, jsonl.NonObject:
			s.fresh = true
			return true
		}
		ln = copyLine(r)
	}
	s.value(ln)
	return s.pop()
}

func copyLine(r *jsonl.Record) srcLine {
	return srcLine{line: r.Line, off: r.Offset, raw: append([]byte(nil), r.Raw...), nl: r.Newline, bom: r.BOM, nul: r.Kind == jsonl.NULRun}
}

func lineRecord(ln srcLine, k jsonl.Kind) jsonl.Record {
	return jsonl.Record{Line: ln.line, Offset: ln.off, Raw: ln.raw, Newline: ln.nl, Kind: k, BOM: ln.bom,
		CRLF: ln.nl && bytes.HasSuffix(ln.raw, []byte("\r"))}
}

// pop moves the first queued record to s.rec, parsing its value.
func (s *valueScanner) pop() bool {
	s.rec = s.out[0]
	s.out = s.out[1:]
	if s.rec.Kind == jsonl.Object || s.rec.Kind == jsonl.NonObject {
		v, err := s.parser.ParseBytes(s.rec.Body())
		if err != nil {
			s.rec.Kind = jsonl.Malformed // cannot happen: the bytes were validated
		} else if v.Type() == fastjson.TypeObject {
			s.rec.Kind, s.rec.Value = jsonl.Object, v
		} else {
			s.rec.Kind, s.rec.Value = jsonl.NonObject, nil
		}
	}
	return true
}

// nextLine returns the next source line (pending first).
func (s *valueScanner) nextLine() (srcLine, bool) {
	if len(s.pending) > 0 {
		ln := s.pending[0]
		s.pending = s.pending[1:]
		return ln, true
	}
	if s.done || !s.lr.Next() {
		if s.err == nil {
			s.err = s.lr.Err()
		}
		s.done = true
		return srcLine{}, false
	}
	return copyLine(s.lr.Record()), true
}

// feeder hands lines to a json.Decoder, one line per Read.
type feeder struct {
	s     *valueScanner
	lines []srcLine
	cur   []byte
}

func (fd *feeder) Read(p []byte) (int, error) {
	if len(fd.cur) == 0 {
		ln, ok := fd.s.nextLine()
		if !ok {
			return 0, io.EOF
		}
		fd.lines = append(fd.lines, ln)
		fd.cur = feedBytes(ln)
		if len(fd.cur) == 0 {
			return 0, nil
		}
	}
	n := copy(p, fd.cur)
	fd.cur = fd.cur[n:]
	return n, nil
}

// feedBytes is what the parser sees of a line: the text without a BOM, with
// its newline.
func feedBytes(ln srcLine) []byte {
	b := ln.raw
	if ln.bom {
		b = b[len(jsonl.BOM):]
	}
	if ln.nl {
		b = append(append([]byte(nil), b...), '\n')
	}
	return b
}

// value parses the value starting on line first (a line that is not a
// single valid value) and queues the records it turns into.
func (s *valueScanner) value(first srcLine) {
	fd := &feeder{s: s, lines: []srcLine{first}, cur: feedBytes(first)}
	dec := json.NewDecoder(fd)
	var raw json.RawMessage
	err := dec.Decode(&raw)
	var syn *json.SyntaxError
	switch {
	case err == nil:
		s.complete(fd, int(dec.InputOffset()))
	case errors.As(err, &syn):
		// Drop the first line; read the others again.
		s.out = append(s.out, droppedLine(first, false))
		s.pending = append(append([]srcLine(nil), fd.lines[1:]...), s.pending...)
	default:
		// Incomplete at the end of the input: everything from here is lost.
		for i, ln := range fd.lines {
			s.out = append(s.out, droppedLine(ln, i == len(fd.lines)-1))
		}
		for _, ln := range s.pending {
			s.out = append(s.out, droppedLine(ln, false))
		}
		s.pending = nil
		for {
			ln, ok := s.nextLine()
			if !ok {
				break
			}
			s.out = append(s.out, droppedLine(ln, false))
		}
		if n := len(s.out); n > 0 && !s.out[n-1].Newline && s.out[n-1].Kind == jsonl.Malformed {
			s.out[n-1].Kind = jsonl.TornTail
		}
		s.done = true
	}
}

func droppedLine(ln srcLine, last bool) jsonl.Record {
	k := jsonl.Malformed
	switch {
	case ln.nul:
		k = jsonl.NULRun
	case last && !ln.nl:
		k = jsonl.TornTail
	case jsonl.Classify(ln.raw, ln.bom, true) == jsonl.Blank:
		k = jsonl.Blank
	}
	return lineRecord(ln, k)
}

// complete queues the records of a value that ends at feed offset end.
func (s *valueScanner) complete(fd *feeder, end int) {
	// Find the line holding the value's last byte.
	pos := 0
	k := 0
	var fb []byte
	for k = 0; k < len(fd.lines); k++ {
		fb = feedBytes(fd.lines[k])
		if end-1 < pos+len(fb) {
			break
		}
		pos += len(fb)
	}
	if k == len(fd.lines) { // cannot happen
		k = len(fd.lines) - 1
	}
	first, last := fd.lines[0], fd.lines[k]
	// Give back lines the decoder did not need (none in practice).
	if k+1 < len(fd.lines) {
		s.pending = append(append([]srcLine(nil), fd.lines[k+1:]...), s.pending...)
	}
	rest := fb[end-pos:]
	rest = bytes.TrimSuffix(rest, []byte("\n"))
	valueEnd := last.off + int64(end-pos)
	if last.bom {
		valueEnd += int64(len(jsonl.BOM))
	}
	if len(bytes.Trim(rest, " \t\r")) == 0 {
		s.out = append(s.out, jsonl.Record{Line: first.line, Offset: first.off, Raw: joinLines(fd.lines[:k+1]),
			Newline: last.nl, Kind: jsonl.Object, BOM: first.bom, CRLF: last.nl && bytes.HasSuffix(last.raw, []byte("\r"))})
		return
	}
	all := joinLines(fd.lines[:k+1])
	s.out = append(s.out, jsonl.Record{Line: first.line, Offset: first.off, Raw: all[:valueEnd-first.off],
		Kind: jsonl.Object, BOM: first.bom})
	s.out = append(s.out, jsonl.Record{Line: last.line, Offset: valueEnd, Raw: rest, Newline: last.nl, Kind: jsonl.Malformed})
}

func joinLines(ls []srcLine) []byte {
	if len(ls) == 1 {
		return ls[0].raw
	}
	var b []byte
	for i, ln := range ls {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, ln.raw...)
	}
	return b
}
