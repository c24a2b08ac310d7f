package claude

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/valyala/fastjson"
)

// A line longer than jsonl.LongLine is never held whole by the views
// (show, show --json, export, check, tree, search): it is read through a
// jsonl.Elider, whose copy of the line has each string value over
// jsonl.ElidedMin bytes replaced by a placeholder, and that small copy is
// parsed as the line. A text, thinking or tool result block whose text is
// one placeholder keeps where the string is (Block.Long, a
// model.TextRef decoded as fastjson decodes: Loose), and is decoded from
// the file in pieces where it is printed; show --json writes the stored
// bytes copied from the file. A line whose placeholders land anywhere else
// (a tool call's input, an id, a text joined from several blocks, an
// image) is read whole, as before.

// longLines is the File's reader of long lines.
type longLines struct {
	// el's placeholders stand in the turns decoded from long lines; its
	// Refs grow by one per long string read (never the strings).
	el  *jsonl.Elider
	buf []byte
	// copies keeps the body of the elided copy of the lines read so far,
	// up to copiesMax bytes in all: a view reads a line several times
	// (send plan, header, transcript, tree), its copy is made once. The
	// placeholders in a copy stay valid (el's Refs only grow).
	// The index pass makes the first copy of each long object line
	// (applyElided), with el.
	copies map[int32][]byte
	kept   int
}

func (f *File) longs() *longLines {
	if f.long == nil {
		f.long = &longLines{el: jsonl.NewElider(jsonl.ElidedMin)}
	}
	return f.long
}

// keep keeps body, the elided copy of line li made by el, while copies
// holds less than copiesMax bytes.
func (l *longLines) keep(li int32, body []byte) {
	if l.kept+len(body) > copiesMax {
		return
	}
	if l.copies == nil {
		l.copies = map[int32][]byte{}
	}
	l.copies[li] = bytes.Clone(body)
	l.kept += len(body)
}

// elide returns the body (no BOM, newline or CR) of the elided copy of the
// line at off (n bytes, newline included), made by el into buf.
func (f *File) elide(el *jsonl.Elider, buf []byte, off, n int64, bom bool) (small, body []byte, err error) {
	small, err = el.Elide(buf[:0], io.NewSectionReader(f.ra, off, n), off)
	if err != nil {
		return small, nil, err
	}
	body = small
	if bom {
		body = bytes.TrimPrefix(body, jsonl.BOM)
	}
	body = bytes.TrimSuffix(body, []byte("\n"))
	body = bytes.TrimSuffix(body, []byte("\r"))
	return small, body, nil
}

// copiesMax bounds longLines.copies.
const copiesMax = 8 << 20

// isLong reports whether line li is read elided.
func (f *File) isLong(li int32) bool {
	return f.ra != nil && f.lineLen(li) > jsonl.LongLine && !keepLongLines
}

// keepLongLines makes every line be read whole (tests compare the two
// readings).
var keepLongLines = false

// parseLong is parseLine, except that a line longer than jsonl.LongLine is
// parsed from its elided copy (long true); raw is then that copy, valid
// until the next call.
func (f *File) parseLong(p *fastjson.Parser, li int32) (v *fastjson.Value, raw []byte, long bool, err error) {
	if !f.isLong(li) {
		v, raw, err = f.parseLine(p, li)
		return v, raw, false, err
	}
	l := f.longs()
	if body, ok := l.copies[li]; ok {
		v, err = p.ParseBytes(body)
		return v, body, true, err
	}
	small, body, err := f.elide(l.el, l.buf, f.lines[li].off, f.lineLen(li), li == 0)
	l.buf = small
	if err != nil {
		return nil, nil, true, err
	}
	l.keep(li, body)
	v, err = p.ParseBytes(body)
	return v, small, true, err
}

// longRef returns where the string that placeholder s stands for is (nil
// when s is not one of the File's placeholders).
func (f *File) longRef(s string) *model.TextRef {
	if f == nil || f.long == nil || !jsonl.Holds(s) {
		return nil
	}
	r, ok := f.long.el.Lookup(s)
	if !ok {
		return nil
	}
	return &model.TextRef{Path: f.Path, Off: r.Off, Len: r.Len, Verbatim: !r.Escaped, Loose: r.Escaped}
}

// longRefBytes is longRef for a decoded string given as bytes: it is
// turned into a string only when it may be a placeholder, so the texts of
// files without long lines are not copied.
func (f *File) longRefBytes(b []byte) *model.TextRef {
	if f == nil || f.long == nil || !jsonl.HoldsBytes(b) {
		return nil
	}
	return f.longRef(string(b))
}

// longPieces decodes the text of ref in pieces (each ending at a
// character boundary), as fastjson decodes it.
func longPieces(ref *model.TextRef, ra io.ReaderAt, fn func([]byte) error) error {
	return jsonl.DecodeStringAs(io.NewSectionReader(ra, ref.Off, ref.Len), ref.Verbatim, ref.Loose, fn)
}

// holdLong reads the text of ref whole (for a view that takes no
// references).
func (f *File) holdLong(ref *model.TextRef) (string, error) {
	var sb strings.Builder
	err := longPieces(ref, f.ra, func(p []byte) error { sb.Write(p); return nil })
	return sb.String(), err
}

func unsafeString(p []byte) string { return unsafe.String(unsafe.SliceData(p), len(p)) }

// errStopPieces ends a decoding early.
var errStopPieces = &stopErr{}

type stopErr struct{}

func (*stopErr) Error() string { return "stop" }

// blank is strings.TrimSpace(string(s)) == "" for a decoded string that
// may be a placeholder of a long line (decoded from the file, in pieces).
func (f *File) blank(s []byte) bool {
	ref := f.longRefBytes(s)
	if ref == nil {
		return len(bytes.TrimSpace(s)) == 0
	}
	space := true
	err := longPieces(ref, f.ra, func(p []byte) error {
		for len(p) > 0 {
			r, n := utf8.DecodeRune(p)
			if !unicode.IsSpace(r) || r == utf8.RuneError && n == 1 {
				space = false
				return errStopPieces
			}
			p = p[n:]
		}
		return nil
	})
	return space && (err == nil || err == errStopPieces)
}

// hasPrefix is strings.HasPrefix(string(s), prefix) for a decoded string
// that may be a placeholder of a long line.
func (f *File) hasPrefix(s []byte, prefix string) bool {
	ref := f.longRefBytes(s)
	if ref == nil {
		return bytes.HasPrefix(s, []byte(prefix))
	}
	var head []byte
	_ = longPieces(ref, f.ra, func(p []byte) error {
		head = append(head, p[:min(len(p), len(prefix)-len(head))]...)
		if len(head) >= len(prefix) {
			return errStopPieces
		}
		return nil
	})
	return string(head) == prefix
}

// settleLong makes the blocks of t, decoded from the elided copy of a long
// line, refer to the texts that are placeholders (Block.Long), and
// reports whether no placeholder is left where a reference cannot stand:
// then t is what the whole line gives (its Content, Usage and
// CompactMetadata, raw JSON, are expanded from the file when written).
func (f *File) settleLong(t *Turn, text bool) bool {
	for _, s := range []string{t.Type, t.Subtype, t.Role, t.Timestamp, t.Model, t.MessageID, t.LogicalParentUUID} {
		if jsonl.Holds(s) {
			return false
		}
	}
	for i := range t.Blocks {
		b := &t.Blocks[i]
		for _, s := range []string{b.Type, b.Name, b.ID, b.ToolUseID, b.Input, b.MIME} {
			if jsonl.Holds(s) {
				return false
			}
		}
		if text && (b.Type == "image" || len(b.Images) > 0) {
			return false // an image's size and place come from the whole line
		}
		if !jsonl.Holds(b.Text) {
			continue
		}
		switch b.Type {
		case "text", "thinking", "tool_result":
		default:
			return false
		}
		ref := f.longRef(b.Text)
		if ref == nil {
			return false // a text joined from several strings
		}
		b.Long, b.Text = ref, ""
	}
	return true
}

// reencoded marks the placeholder content of t (a string content,
// rewritten as a text block by textBlock): show --json writes its text
// JSON-encoded as json.Marshal does, not the stored string.
func (t *Turn) reencoded(s []byte) {
	if jsonl.HoldsBytes(s) {
		t.reenc = append(t.reenc, string(s))
	}
}

// writeExpanded writes tb (a turn's JSON whose raw parts may hold
// placeholders of long lines) with each placeholder replaced by the
// stored string, copied from the file, or by its text JSON-encoded for a
// string content that show --json re-encodes (t.reenc).
func (f *File) writeExpanded(w io.Writer, tb []byte, t *Turn) error {
	if !jsonl.HoldsBytes(tb) || f.long == nil {
		_, err := w.Write(tb)
		return err
	}
	var enc *json.Encoder
	var eb bytes.Buffer
	return f.long.el.ExpandWith(w, tb, func(w io.Writer, r jsonl.Elided) error {
		re := false
		for _, s := range t.reenc {
			if x, ok := f.long.el.Lookup(s); ok && x.Off == r.Off {
				re = true
			}
		}
		if !re {
			n, err := io.Copy(w, io.NewSectionReader(f.ra, r.Off, r.Len))
			if err == nil && n != r.Len {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		// json.Marshal's string encoding is per character: the pieces
		// (ending at character boundaries) are encoded one by one.
		if enc == nil {
			enc = json.NewEncoder(&eb)
		}
		if _, err := io.WriteString(w, `"`); err != nil {
			return err
		}
		ref := &model.TextRef{Off: r.Off, Len: r.Len, Verbatim: !r.Escaped, Loose: r.Escaped}
		err := longPieces(ref, f.ra, func(p []byte) error {
			eb.Reset()
			if err := enc.Encode(unsafeString(p)); err != nil {
				return err
			}
			b := eb.Bytes()
			// "…"\n
			_, err := w.Write(b[1 : len(b)-2])
			return err
		})
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, `"`)
		return err
	})
}

// limitWriter keeps the first n bytes written to it, then fails.
type limitWriter struct {
	b []byte
	n int
}

func (w *limitWriter) Write(p []byte) (int, error) {
	k := min(len(p), w.n-len(w.b))
	w.b = append(w.b, p[:k]...)
	if k < len(p) {
		return k, errStopPieces
	}
	return k, nil
}

// expandHead returns out (compact JSON text after a prefix: one line)
// with its placeholders expanded from the file as far as head(out, max)
// reads: when cut, a mark follows so that head cuts it too.
func (f *File) expandHead(out []byte, max int) []byte {
	w := &limitWriter{n: 4*(max+2) + len(out)}
	if err := f.long.el.ExpandTo(w, out, f.ra); err == errStopPieces {
		return append(w.b, "xx"...)
	}
	return w.b
}

// longHead is head(prefix + t, max) for the text t of ref, trimmed first
// (bytes.TrimSpace) when trim, read from the file: only the first line's
// first runes are kept, and past them only whether head would print more.
func (f *File) longHead(prefix string, ref *model.TextRef, trim bool, max int) string {
	var keep []byte
	runes := 0
	started := false    // past the leading white space the text loses
	lineEnd := false    // keep ends at the first line's end
	full := false       // keep holds max+2 runes of the line
	more := false       // head prints something after keep
	pendSpace := false  // after keep: a space head keeps only when a non-space follows (trim)
	laterNonSp := false // a non-space after keep (TrimSpace keeps what is before it)
	isSpace := func(r rune, n int) bool { return unicode.IsSpace(r) && !(r == utf8.RuneError && n == 1) }
	err := longPieces(ref, f.ra, func(p []byte) error {
		for len(p) > 0 {
			r, n := utf8.DecodeRune(p)
			c := p[:n]
			p = p[n:]
			if !started {
				switch {
				case trim && isSpace(r, n):
					continue
				case !trim && prefix == "" && (r == ' ' || r == '\t' || r == '\r' || r == '\n'):
					continue
				}
				started = true
			}
			if !lineEnd && !full {
				if r == '\n' {
					lineEnd = true
					continue
				}
				keep = append(keep, c...)
				if runes++; runes >= max+2 {
					full = true
				}
				continue
			}
			sp := isSpace(r, n)
			if !sp {
				laterNonSp = true
			}
			if full && !lineEnd && !more {
				switch {
				case r == '\n':
					lineEnd = true
				case r == ' ' || r == '\t' || r == '\r':
				case !trim || !sp:
					more = true
				default:
					pendSpace = true
				}
			}
			if pendSpace && !sp {
				more = true
			}
			if more || lineEnd && (!trim || laterNonSp) {
				return errStopPieces
			}
		}
		return nil
	})
	if err != nil && err != errStopPieces {
		return head([]byte(prefix), max)
	}
	if trim && !laterNonSp {
		keep = bytes.TrimRightFunc(keep, unicode.IsSpace)
	}
	if more {
		keep = append(keep, "xx"...)
	}
	return head(append([]byte(prefix), keep...), max)
}

// pickerClip gathers what pickerClip needs of a text handed to it in
// pieces that end at character boundaries: the text with "\r\n" and "\n"
// made spaces and its leading white space left out, as far as 202 UTF-16
// units, and whether a non-space follows.
type clipper struct {
	cr      bool // a '\r' not yet taken ("\r\n" is one space)
	started bool // past the leading white space: the text is not blank
	keep    []byte
	units   int
	later   bool
}

func (c *clipper) write(p []byte) {
	for len(p) > 0 {
		r, n := utf8.DecodeRune(p)
		b := p[:n]
		p = p[n:]
		if c.cr {
			c.cr = false
			if r == '\n' {
				c.put(' ', []byte{' '}, false)
				continue
			}
			c.put('\r', []byte{'\r'}, false)
		}
		switch r {
		case '\r':
			c.cr = true
		case '\n':
			c.put(' ', []byte{' '}, false)
		default:
			c.put(r, b, r == utf8.RuneError && n == 1)
		}
	}
}

func (c *clipper) end() {
	if c.cr {
		c.cr = false
		c.put('\r', []byte{'\r'}, false)
	}
}

func (c *clipper) put(r rune, b []byte, invalid bool) {
	sp := unicode.IsSpace(r) && !invalid
	if !c.started {
		if sp {
			return
		}
		c.started = true
	}
	if c.units <= 201 {
		c.keep = append(c.keep, b...)
		c.units++
		if r >= 0x10000 {
			c.units++
		}
		return
	}
	if !sp {
		c.later = true
	}
}

// text is a text whose pickerClip is the whole text's.
func (c *clipper) text() string {
	if c.later {
		return string(c.keep) + "x"
	}
	return string(c.keep)
}

// tagged is between(text, open, close) for a text in pieces: the text
// between the first open and the first close after it goes to c.
type tagged struct {
	open, close string
	state       int // 0: looking for open, 1: in between, 2: closed
	win         []byte
	c           clipper
}

func (t *tagged) write(p []byte) {
	if t.state == 2 {
		return
	}
	t.win = append(t.win, p...)
	for {
		if t.state == 0 {
			if i := strings.Index(unsafeString(t.win), t.open); i >= 0 {
				t.shift(i + len(t.open))
				t.state = 1
				continue
			}
			t.shift(max(0, len(t.win)-len(t.open)+1))
			return
		}
		if i := strings.Index(unsafeString(t.win), t.close); i >= 0 {
			t.c.write(t.win[:i])
			t.c.end()
			t.state = 2
			t.win = t.win[:0]
			return
		}
		// Keep what may start the close tag, cut at a rune's start.
		k := max(0, len(t.win)-len(t.close)+1)
		for k > 0 && !utf8.RuneStart(t.win[k]) {
			k--
		}
		t.c.write(t.win[:k])
		t.shift(k)
		return
	}
}

func (t *tagged) shift(k int) { t.win = t.win[:copy(t.win, t.win[k:])] }

// longPicker is pickerPrompt's reading of a text content that is the long
// string of ref, read from the file once, in pieces, holding a few hundred
// bytes of it.
func (f *File) longPicker(ref *model.TextRef) (prompt, cmd string) {
	var all clipper
	cmdTag := &tagged{open: "<command-name>", close: "</command-name>"}
	bash := &tagged{open: "<bash-input>", close: "</bash-input>"}
	var head []byte // the first bytes after the leading white space
	started := false
	err := longPieces(ref, f.ra, func(p []byte) error {
		all.write(p)
		cmdTag.write(p)
		bash.write(p)
		for q := p; len(head) < 32 && len(q) > 0; {
			r, n := utf8.DecodeRune(q)
			if !started && unicode.IsSpace(r) && !(r == utf8.RuneError && n == 1) {
				q = q[n:]
				continue
			}
			started = true
			k := min(len(q), 32-len(head))
			head = append(head, q[:k]...)
			q = q[k:]
		}
		return nil
	})
	if err != nil {
		return "", ""
	}
	all.end()
	if cmdTag.state == 2 && cmdTag.c.started {
		return "", pickerClip(cmdTag.c.text())
	}
	if strings.HasPrefix(string(head), "<bash-input>") && bash.state == 2 && bash.c.started {
		return pickerClip("! " + bash.c.text()), ""
	}
	if !IsRealPrompt(string(head)) {
		return "", ""
	}
	return pickerClip(all.text()), ""
}
