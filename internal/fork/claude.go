package fork

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/google/uuid"
	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/jsonedit"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/safewrite"
)

// forkedFrom is the field Claude Code's /branch adds to every copied line.
type forkedFrom struct {
	SessionID   string `json:"sessionId"`
	MessageUUID string `json:"messageUuid"`
}

// Claude forks a Claude Code transcript: the records Claude Code would load
// for the entry (opts.At, a uuid or unique prefix; default the leaf current
// Claude Code resumes), in that order, into <new uuid>.jsonl in the same
// project folder (or opts.Output). Each line is the source line with the
// new sessionId and forkedFrom {sessionId, messageUuid} added; uuids are
// kept. Lines are chained one after another (parentUuid = the previous
// line, null on the first), as /branch does, so that every leaf mode of
// the agent walks the same records; parentUuid changes only where the
// source's differs. The fork is re-read as it is written and nothing is
// published unless its conversation is exactly the source's at the entry.
func Claude(src string, opts Options) (*Result, error) {
	if opts.Full {
		return nil, errors.New("--full is not supported for Claude Code transcripts (fork copies the conversation at one entry)")
	}
	f, err := claude.Open(src)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := f.Walk(opts.At, false)
	if err != nil {
		return nil, err
	}
	ids, lines := p.UUIDs(f), p.Lines(f)
	if len(ids) == 0 {
		return nil, fmt.Errorf("%s: nothing to fork", src)
	}
	u, err := uuid.NewRandom()
	if err != nil {
		return nil, err
	}
	sid := u.String()
	out := opts.Output
	if out == "" {
		out = filepath.Join(filepath.Dir(src), sid+".jsonl")
	}
	res := &Result{Source: src, Path: out, SessionID: sid, At: p.Leaf, DryRun: opts.DryRun}
	srcID := strings.TrimSuffix(filepath.Base(src), ".jsonl")
	if _, err := uuid.Parse(srcID); err != nil || len(srcID) != 36 {
		srcID = ""
	}
	if srcID == "" {
		for i, id := range ids {
			if id == p.Leaf {
				raw, err := f.RawLine(lines[i])
				if err != nil {
					return nil, err
				}
				v, _ := jsonl.Field(bytes.TrimPrefix(raw, jsonl.BOM), "sessionId")
				srcID, _ = jsonl.String(v)
			}
		}
		if srcID == "" {
			return nil, errors.New("the source has no session id (neither a uuid file name nor a sessionId on the leaf)")
		}
	}
	sidRaw, _ := json.Marshal(sid)
	w, err := safewrite.Create(out, safewrite.Options{DryRun: opts.DryRun, Mode: 0o600}) // as /branch makes fork files
	if err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	type verdict struct {
		ids  []string
		errs []string
		err  error
	}
	done := make(chan verdict, 1)
	go func() {
		var vd verdict
		g, err := claude.Read(pr, -1)
		io.Copy(io.Discard, pr)
		if err == nil {
			for _, q := range claude.ToProblems(g.Problems()) {
				if q.Severity == problem.Error {
					vd.errs = append(vd.errs, q.String())
				}
			}
			// the fork's own leaf; a fork without user/assistant records
			// has none and is walked from the entry
			leaf, _ := g.Leaf(claude.LeafLastPrompt)
			if leaf == "" {
				leaf = p.Leaf
			}
			var gp *claude.Path
			if gp, err = g.Walk(leaf, false); err == nil {
				vd.ids = gp.UUIDs(g)
			}
		}
		vd.err = err
		done <- vd
	}()
	bw := bufio.NewWriterSize(io.MultiWriter(w, pw), 1<<20)
	werr := func() error {
		for i, ln := range lines {
			raw, err := f.RawLine(ln)
			if err != nil {
				return err
			}
			raw = bytes.TrimSuffix(bytes.TrimPrefix(raw, jsonl.BOM), []byte("\r"))
			ed, err := jsonedit.NewEditor(raw)
			if err != nil {
				return fmt.Errorf("line %d: %w", ln, err)
			}
			want := []byte("null")
			if i > 0 {
				want, _ = json.Marshal(ids[i-1])
			}
			if cur, ok := ed.Get("parentUuid"); !ok || !bytes.Equal(cur, want) {
				if err := ed.Set("parentUuid", want); err != nil {
					return err
				}
				if i > 0 || ok && !bytes.Equal(cur, []byte("null")) {
					res.Relinked++
				}
			}
			if err := ed.Set("sessionId", sidRaw); err != nil {
				return err
			}
			ff, _ := json.Marshal(forkedFrom{SessionID: srcID, MessageUUID: ids[i]})
			if err := ed.Set("forkedFrom", ff); err != nil {
				return err
			}
			bw.Write(ed.Bytes())
			if err := bw.WriteByte('\n'); err != nil {
				return err
			}
			res.Entries++
		}
		return bw.Flush()
	}()
	pw.CloseWithError(werr)
	vd := <-done
	if werr != nil {
		w.Abort()
		return nil, werr
	}
	if vd.err != nil {
		w.Abort()
		return nil, fmt.Errorf("re-reading the fork: %w (nothing was written)", vd.err)
	}
	if len(vd.errs) > 0 {
		w.Abort()
		return nil, fmt.Errorf("the fork would have errors, so nothing was written (please report this): %s", strings.Join(vd.errs, "; "))
	}
	if !equalStrings(vd.ids, ids) {
		w.Abort()
		return nil, fmt.Errorf("the fork would not load the same %d records as the source at %s, so nothing was written (please report this)", len(ids), p.Leaf)
	}
	if _, err := w.Commit(); err != nil {
		return nil, err
	}
	return res, nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
