package repair

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonedit"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/safewrite"
)

// ClosedToolCallText is the text of the synthetic result repair appends for
// a tool call that never got one.
const ClosedToolCallText = "Tool call interrupted: no result was recorded for it (closed by sessctl repair --close-tool-calls)."

// closeToolCalls appends an error result, chained at the leaf, for each tool
// call on the active path that has no result there.
func (p *planner) closeToolCalls(ra io.ReaderAt) error {
	es := p.entries()
	if len(es) == 0 {
		return nil
	}
	pos := map[string]int{}
	for k, e := range es {
		if e.hasID {
			pos[e.id] = k
		}
	}
	var path []int
	seen := map[int]bool{}
	for k := len(es) - 1; k >= 0 && !seen[k]; {
		seen[k] = true
		path = append(path, k)
		j, ok := pos[es[k].parent]
		if es[k].parent == "" || !ok {
			break
		}
		k = j
	}
	type call struct{ id, name string }
	var calls []call
	answered := map[string]bool{}
	for i := len(path) - 1; i >= 0; i-- {
		e := es[path[i]]
		if e.typ != "message" {
			continue
		}
		b, err := p.lineBytes(ra, e)
		if err != nil {
			return err
		}
		m, _ := jsonl.Field(b, "message")
		role, _ := jsonl.String(field(m, "role"))
		switch role {
		case "assistant":
			if stop, _ := jsonl.String(field(m, "stopReason")); stop == "error" || stop == "aborted" {
				break // pi-ai leaves such a turn out of the context: its calls need no result (as check)
			}
			jsonl.Elements(field(m, "content"), func(blk []byte) bool {
				if t, _ := jsonl.String(field(blk, "type")); t == "toolCall" {
					id, _ := jsonl.KeyString(field(blk, "id")) // a key: lone surrogates kept, as JavaScript's strings
					name, _ := jsonl.String(field(blk, "name"))
					calls = append(calls, call{id, name})
				}
				return true
			})
		case "toolResult":
			id, _ := jsonl.KeyString(field(m, "toolCallId"))
			answered[id] = true
		}
	}
	leaf := es[len(es)-1].id
	now := p.opts.now().UTC()
	for _, c := range calls {
		if answered[c.id] {
			continue
		}
		id := p.freshID()
		msg := map[string]any{
			"role": "toolResult", "toolCallId": json.RawMessage(jsonl.AppendKeyJSON(nil, c.id)), "toolName": c.name,
			"content": []map[string]string{{"type": "text", "text": ClosedToolCallText}},
			"isError": true, "timestamp": now.UnixMilli(),
		}
		entry := struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			ParentID  json.RawMessage `json:"parentId"`
			Timestamp string          `json:"timestamp"`
			Message   map[string]any  `json:"message"`
		}{"message", id, jsonl.AppendKeyJSON(nil, leaf), now.Format("2006-01-02T15:04:05.000Z"), msg}
		b, _ := json.Marshal(entry)
		p.lines = append(p.lines, &vline{bytes: b, obj: true, typ: "message", id: id, hasID: true, parent: leaf, refs: map[string]string{}})
		p.fix(Fix{Code: pi.CodeToolCallNoResult, Action: "closed-tool-call", ID: id,
			Detail: fmt.Sprintf("appended an error result for tool call %s (%s)", c.id, c.name)})
		leaf = id
		answered[c.id] = true
	}
	return nil
}

func field(obj []byte, key string) []byte {
	if len(obj) == 0 || obj[0] != '{' {
		return nil
	}
	v, _ := jsonl.Field(obj, key)
	return v
}

// lineBytes returns the line's content (without newline or '\r').
func (p *planner) lineBytes(ra io.ReaderAt, v *vline) ([]byte, error) {
	if v.bytes != nil {
		return v.bytes, nil
	}
	b, err := jsonl.ReadLineAt(ra, v.off, v.n)
	if err != nil {
		return nil, err
	}
	if v.crlf && len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return b, nil
}

// copyLine writes an unchanged original line as emit writes what
// lineBytes gives (the line without its newline and, when crlf, its '\r';
// then '\r' when crlf, and '\n'), copying it from ra in pieces.
func copyLine(w io.Writer, ra io.ReaderAt, v *vline) error {
	n := v.n
	var tail [2]byte
	k := min(n, 2)
	if m, err := ra.ReadAt(tail[:k], v.off+n-k); int64(m) < k {
		if err == nil || errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF // the file is shorter than recorded
		}
		return err
	}
	t := tail[:k]
	if len(t) > 0 && t[len(t)-1] == '\n' {
		n--
		t = t[:len(t)-1]
	}
	if v.crlf && len(t) > 0 && t[len(t)-1] == '\r' {
		n--
	}
	if m, err := io.Copy(w, io.NewSectionReader(ra, v.off, n)); m < n {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	if v.crlf {
		if _, err := w.Write([]byte{'\r'}); err != nil {
			return err
		}
	}
	_, err := w.Write([]byte{'\n'})
	return err
}

// render applies the line's edits.
func (v *vline) render(b []byte) ([]byte, error) {
	for _, key := range editKeys {
		val, ok := v.edits[key]
		if !ok {
			continue
		}
		raw := []byte("null")
		if val != "\x00null" {
			raw = jsonl.AppendKeyJSON(nil, val) // an id key: its lone surrogates as \udxxx
		}
		var err error
		if b, err = jsonedit.Set(b, key, raw); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// editKeys are the fields a fix may change, in the order they are edited:
// pi's id fields, then Claude Code's uuid fields.
var editKeys = []string{"id", "parentId", "targetId", "firstKeptEntryId", "fromId",
	"uuid", "parentUuid", "logicalParentUuid", "sourceToolAssistantUUID", "leafUuid", "messageId"}

// verifiedCodes are the errors a repaired file must not have.
var verifiedCodes = map[string]bool{
	problem.TornTail: true, problem.MalformedLine: true, problem.NULRun: true, problem.BOM: true,
	problem.NonObject: true, problem.MissingHeader: true, problem.DuplicateID: true,
	problem.SelfParent: true, problem.Cycle: true, problem.Orphan: true,
}

func (p *planner) write(ra io.ReaderAt, snap safewrite.Snapshot) error {
	return p.writeVerified(ra, snap, safewrite.IsOpenClawTranscript(p.path), func(r io.Reader) ([]string, []problem.Problem, error) {
		f, err := pi.Read(r, p.path, pi.Options{Dialect: p.src.Dialect})
		if err != nil {
			return nil, nil, err
		}
		var left []string
		var rest []problem.Problem
		for _, pr := range f.Problems {
			if pr.Severity == problem.Error && verifiedCodes[pr.Code] {
				left = append(left, pr.String())
			}
			if pr.Code != problem.SeveralRoots {
				rest = append(rest, pr)
			}
		}
		return left, rest, nil
	})
}

// verifier re-reads the repaired content as it is written and returns the
// errors that must not be left (any makes the repair abort) and the
// problems to report as remaining.
type verifier func(r io.Reader) (errs []string, remaining []problem.Problem, err error)

// emit writes the repaired lines to w.
func (p *planner) emit(w io.Writer, ra io.ReaderAt) error {
	out := bufio.NewWriterSize(w, 1<<20)
	for _, v := range p.lines {
		if v.bytes == nil && len(v.edits) == 0 && v.n > jsonl.LongLine {
			// a long line kept as it is: copied, not held
			if err := copyLine(out, ra, v); err != nil {
				return err
			}
			continue
		}
		b, err := p.lineBytes(ra, v)
		if err != nil {
			return err
		}
		if len(v.edits) > 0 {
			if b, err = v.render(b); err != nil {
				return fmt.Errorf("line %d: %w", v.orig, err)
			}
		}
		out.Write(b)
		if v.crlf {
			out.WriteByte('\r')
		}
		if err := out.WriteByte('\n'); err != nil {
			return err
		}
	}
	return out.Flush()
}

// writeVerified writes the repaired file through safewrite, teeing the
// bytes into verify; it commits only when verify finds no error left. The
// rejected lines go to the sidecar only after the session is committed:
// before the commit they are written to a journal beside the sidecar
// (see sidecar.go), so that a crash between the two steps neither loses
// them nor leaves records for lines still in the session; the next repair
// of the file finishes or drops the journal.
func (p *planner) writeVerified(ra io.ReaderAt, snap safewrite.Snapshot, openClawLock bool, verify verifier) error {
	side := SidecarPath(p.path)
	like := derivedMeta(snap)
	if len(p.rejects) > 0 {
		if err := checkSidecarName(side); err != nil {
			return fmt.Errorf("the rejected lines cannot be kept in %s: %w (nothing was changed)", side, err)
		}
	}
	at, err := p.plannedContent(ra, snap.Size)
	if err != nil {
		return err
	}
	w, err := safewrite.Begin(p.path, safewrite.Options{Snapshot: &snap, DryRun: p.opts.DryRun, NoBackup: p.opts.NoBackup,
		OpenClawLock: openClawLock, Checkpoint: stepper("session:")})
	if err != nil {
		return err
	}
	pr, pw := io.Pipe()
	type verdict struct {
		left []string
		rest []problem.Problem
		err  error
	}
	done := make(chan verdict, 1)
	go func() {
		left, rest, err := verify(verifyReader{pr, at})
		io.Copy(io.Discard, pr)
		done <- verdict{left, rest, err}
	}()
	werr := p.emit(io.MultiWriter(w, pw), ra)
	pw.CloseWithError(werr)
	vd := <-done
	if werr != nil {
		w.Abort()
		return fmt.Errorf("writing the repaired content: %w (nothing was changed)", werr)
	}
	if vd.err != nil {
		w.Abort()
		return fmt.Errorf("re-reading the repaired content: %w (nothing was changed)", vd.err)
	}
	if len(vd.left) > 0 {
		w.Abort()
		return fmt.Errorf("the repaired content would still have errors, so nothing was changed (please report this): %s", strings.Join(vd.left, "; "))
	}
	var j *journal
	if len(p.rejects) > 0 && !p.opts.DryRun {
		tmp, err := w.TempSnapshot()
		if err == nil {
			j, err = writeJournal(side, p.path, tmp, like, p.sidecarRecords)
		}
		if err != nil {
			w.Abort()
			return fmt.Errorf("writing the rejected lines to a journal beside %s: %w (nothing was changed)", side, err)
		}
	}
	res, err := w.Commit()
	if res == nil {
		// not published: the session is unchanged, so is the sidecar
		if j != nil {
			j.drop()
		}
		return err
	}
	p.res.Backup = res.Backup
	p.res.Remaining = append(p.res.Remaining, vd.rest...)
	if len(p.rejects) > 0 {
		p.res.Sidecar = side
	}
	if j != nil {
		if serr := j.apply(side, like); serr != nil {
			return p.sidecarFailed(side, j.path, res.Backup, serr)
		}
	}
	return err
}

// sidecarRecords writes the sidecar records of this repair, tagged id.
func (p *planner) sidecarRecords(w io.Writer, id string) error {
	at := p.opts.now().UTC().Format("2006-01-02T15:04:05Z")
	for _, r := range p.rejects {
		rec := rejectedLine{Sessctl: "rejected-line", File: filepath.Base(p.path), Line: r.line, Reason: r.reason, At: at, Repair: id}
		if utf8.Valid(r.raw) {
			rec.Text = string(r.raw)
		} else {
			rec.Base64 = base64.StdEncoding.EncodeToString(r.raw)
		}
		b, _ := json.Marshal(rec)
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// rejectedLine is one record of the .rejected.jsonl sidecar.
type rejectedLine struct {
	Sessctl string `json:"sessctl"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Reason  string `json:"reason"`
	At      string `json:"at"`
	Text    string `json:"text,omitempty"`
	Base64  string `json:"base64,omitempty"`
	// Repair identifies the repair that moved the line (its journal), so
	// that finishing an interrupted repair never adds a record twice.
	Repair string `json:"repair,omitempty"`
}

// SidecarPath is where repair keeps the lines it takes out of path.
func SidecarPath(path string) string { return path + ".rejected.jsonl" }
