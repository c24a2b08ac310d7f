package pi

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/sessctl/sessctl/internal/jsonl"
)

// lineReader reads entry lines back by offset into one reusable buffer.
// Path entries are mostly in file order, so it reads forward through a
// buffer, skipping the lines in between, and seeks only to go back or to
// jump far ahead: a path of a million entries costs a few thousand reads,
// not a million.
type lineReader struct {
	f   *File
	fh  *os.File
	br  *bufio.Reader
	pos int64 // file offset of br's next byte
	buf []byte
	mig []byte // the migrated form of a legacy line
}

// maxSkip is the largest gap read through instead of seeking over.
const maxSkip = 1 << 20

func (f *File) openLines() (*lineReader, error) {
	fh, err := os.Open(f.Path)
	if err != nil {
		return nil, err
	}
	return &lineReader{f: f, fh: fh, br: bufio.NewReaderSize(fh, 1<<20)}, nil
}

func (r *lineReader) close() { r.fh.Close() }

// entry returns the path entry of entry i; its line is valid until the next call.
func (r *lineReader) entry(i int) (pathEntry, error) {
	b, err := r.raw(i)
	if err != nil {
		return pathEntry{}, err
	}
	return newPathEntry(i, b, r.f.Entries[i].Type()), nil
}

// raw returns entry i's line as stored, without its newline; valid until
// the next call.
func (r *lineReader) raw(i int) ([]byte, error) {
	e := r.f.Entries[i]
	if e.Offset < r.pos || e.Offset-r.pos > maxSkip {
		if _, err := r.fh.Seek(e.Offset, io.SeekStart); err != nil {
			return nil, err
		}
		r.br.Reset(r.fh)
		r.pos = e.Offset
	} else if gap := e.Offset - r.pos; gap > 0 {
		if _, err := r.br.Discard(int(gap)); err != nil {
			return nil, err
		}
		r.pos = e.Offset
	}
	if int64(cap(r.buf)) < e.Len {
		r.buf = make([]byte, e.Len)
	}
	b := r.buf[:e.Len]
	n, err := io.ReadFull(r.br, b)
	r.pos += int64(n)
	if err != nil && !(errors.Is(err, io.ErrUnexpectedEOF) && int64(n) == e.Len-1) {
		return nil, err
	}
	b = b[:n]
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if r.f.edits != nil {
		b = r.f.legacyLine(i, b, &r.mig) // a v1/v2 file, read as migrated
	}
	return b, nil
}

// streamPi is pi's buildSessionContext in two light passes: the settings
// and the compaction come from the last entries of their kind on the path
// (found walking back, reading only those lines), then the messages are made
// in path order, one line in memory at a time.
func (f *File) streamPi(ctx *Context, path []int, begin func(*Context) error, emit func([]byte, int) error) error {
	lr, err := f.openLines()
	if err != nil {
		return err
	}
	defer lr.close()
	thinking := json.RawMessage(`"off"`)
	model := json.RawMessage("null")
	compaction := -1
	haveThinking, haveModel := false, false
	for k := len(path) - 1; k >= 0 && !(haveThinking && haveModel && compaction >= 0); k-- {
		i := path[k]
		e := &f.Entries[i]
		switch {
		case e.Type() == "thinking_level_change" && !haveThinking:
			pe, err := lr.entry(i)
			if err != nil {
				return err
			}
			thinking = clone(pe.get("thinkingLevel"))
			haveThinking = true
		case e.Type() == "model_change" && !haveModel:
			pe, err := lr.entry(i)
			if err != nil {
				return err
			}
			model = object(Member{"provider", pe.get("provider")}, Member{"modelId", pe.get("modelId")})
			haveModel = true
		case e.Type() == "message" && e.Role() == "assistant" && !haveModel:
			pe, err := lr.entry(i)
			if err != nil {
				return err
			}
			m := pe.get("message")
			model = object(Member{"provider", clone(sub(m, "provider"))}, Member{"modelId", clone(sub(m, "model"))})
			haveModel = true
		case e.Type() == "compaction" && compaction < 0:
			compaction = k
		}
	}
	ctx.Fields = []Member{{"thinkingLevel", thinking}, {"model", model}}
	if compaction >= 0 {
		ctx.Compaction = path[compaction]
	}
	if err := begin(ctx); err != nil {
		return err
	}

	appendMessage := func(i int) error {
		switch f.Entries[i].Type() {
		case "message", "custom_message", "branch_summary":
		default:
			return nil
		}
		pe, err := lr.entry(i)
		if err != nil {
			return err
		}
		switch pe.typ {
		case "message":
			m := pe.get("message")
			if m == nil {
				m = []byte("null") // JSON.stringify turns undefined in arrays into null
			}
			return emit(m, i)
		case "custom_message":
			return emit(object(
				Member{"role", str("custom")},
				Member{"customType", pe.get("customType")},
				Member{"content", pe.get("content")},
				Member{"display", pe.get("display")},
				Member{"details", pe.get("details")},
				Member{"timestamp", jsTime(pe.get("timestamp"))},
			), i)
		default: // branch_summary
			if s := pe.get("summary"); jsonl.Truthy(s) {
				return emit(object(
					Member{"role", str("branchSummary")},
					Member{"summary", s},
					Member{"fromId", pe.get("fromId")},
					Member{"timestamp", jsTime(pe.get("timestamp"))},
				), i)
			}
		}
		return nil
	}
	if compaction < 0 {
		for _, i := range path {
			if err := appendMessage(i); err != nil {
				return err
			}
		}
		return nil
	}
	ci := path[compaction]
	ctx.Compaction = ci
	c, err := lr.entry(ci)
	if err != nil {
		return err
	}
	firstKept := clone(c.get("firstKeptEntryId"))
	if err := emit(object(
		Member{"role", str("compactionSummary")},
		Member{"summary", c.get("summary")},
		Member{"tokensBefore", c.get("tokensBefore")},
		Member{"timestamp", jsTime(c.get("timestamp"))},
	), ci); err != nil {
		return err
	}
	// pi finds the compaction's index by type and id (the first match).
	cid := f.Index.Nodes[ci].ID
	idx := compaction
	for k, i := range path {
		if f.Entries[i].Type() == "compaction" && f.Index.Nodes[i].ID == cid {
			idx = k
			break
		}
	}
	keptKey := noIDKey // an absent firstKeptEntryId equals an absent id (undefined === undefined)
	if firstKept != nil {
		keptKey = rawKey(firstKept)
	}
	found := false
	for k := 0; k < idx; k++ {
		i := path[k]
		if f.Index.Nodes[i].ID == keptKey {
			found = true
		}
		if found {
			if err := appendMessage(i); err != nil {
				return err
			}
		}
	}
	for k := idx + 1; k < len(path); k++ {
		if err := appendMessage(path[k]); err != nil {
			return err
		}
	}
	return nil
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

// EachLine calls fn with the line of each entry in idx as stored (without
// its newline: a '\r' is kept), in that order, one line in memory at a time;
// line is valid only during the call. Entries in file order are read forward
// through one buffer.
func (f *File) EachLine(idx []int, fn func(i int, line []byte) error) error {
	lr, err := f.openLines()
	if err != nil {
		return err
	}
	defer lr.close()
	for _, i := range idx {
		line, err := lr.raw(i)
		if err != nil {
			return err
		}
		if err := fn(i, line); err != nil {
			return err
		}
	}
	return nil
}
