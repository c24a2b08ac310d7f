// Package fork writes a branch of a session into a new session file, so
// that the agent opening it sees exactly the context of the source at the
// fork point.
package fork

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/sessctl/sessctl/internal/format/pi"
	"github.com/sessctl/sessctl/internal/jsonedit"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/safewrite"
	"github.com/sessctl/sessctl/internal/tree"
)

// Options tune a fork.
type Options struct {
	At     string // entry id or unique prefix (pi); "" = the active leaf
	Full   bool   // copy the whole tree (pi's forkFrom)
	Output string // path of the new file; "" = <ts>_<uuid>.jsonl beside the source
	DryRun bool
	Now    func() time.Time
}

// Result reports a fork.
type Result struct {
	Source     string `json:"source"`
	Path       string `json:"path"`
	SessionID  string `json:"sessionId"`
	At         string `json:"at,omitempty"`
	Entries    int    `json:"entries"`
	Relinked   int    `json:"relinked"`
	LabelsKept int    `json:"labels"`
	DryRun     bool   `json:"dryRun"`
}

// Pi forks a pi-family session.
func Pi(src string, opts Options) (*Result, error) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	f, err := pi.Open(src, pi.Options{})
	if err != nil {
		return nil, err
	}
	if f.HeaderErr != nil {
		return nil, fmt.Errorf("%s is not a valid session file: %v (sessctl repair can fix it first)", src, f.HeaderErr)
	}
	at := tree.None
	if opts.At != "" {
		if at, err = f.FindEntry(opts.At); err != nil {
			return nil, err
		}
	} else {
		at = f.Index.Last()
	}
	t := now().UTC()
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	sid := id.String()
	out := opts.Output
	if out == "" {
		out = filepath.Join(filepath.Dir(src), strings.NewReplacer(":", "-", ".", "-").Replace(t.Format("2006-01-02T15:04:05.000Z"))+"_"+sid+".jsonl")
	}
	absSrc, _ := filepath.Abs(src)
	res := &Result{Source: src, Path: out, SessionID: sid, DryRun: opts.DryRun}
	header := struct {
		Type          string `json:"type"`
		Version       int    `json:"version"`
		ID            string `json:"id"`
		Title         string `json:"title,omitempty"`
		Timestamp     string `json:"timestamp"`
		Cwd           string `json:"cwd"`
		ParentSession string `json:"parentSession"`
	}{"session", pi.CurrentVersion, sid, f.Header.Title, t.Format("2006-01-02T15:04:05.000Z"), f.Header.Cwd, absSrc}
	hb, _ := json.Marshal(header)
	mode := os.FileMode(0o600)
	if st, err := os.Stat(src); err == nil {
		mode = st.Mode().Perm() // the fork is as private as its source
	}
	// The new file is streamed into the writer: one source line in memory
	// at a time, whatever the size of the session.
	w, err := safewrite.Create(out, safewrite.Options{DryRun: opts.DryRun, Mode: mode})
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.Write(hb)
	bw.WriteByte('\n')
	if opts.Full {
		all := make([]int, f.Index.Len())
		for i := range all {
			all[i] = i
		}
		err = f.EachLine(all, func(_ int, l []byte) error {
			bw.Write(l)
			return bw.WriteByte('\n')
		})
		res.Entries = len(all)
	} else if at != tree.None {
		res.At = f.DisplayID(at)
		err = writeBranch(bw, f, at, t, res)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		w.Abort()
		return nil, err
	}
	if _, err := w.Commit(); err != nil {
		return nil, err
	}
	return res, nil
}

// writeBranch writes the root→at path without label entries; children of a
// dropped label are re-chained to the label's nearest kept ancestor, and a
// firstKeptEntryId naming a dropped label is moved to the next kept entry.
// Labels that target kept entries are re-added at the end, chained.
func writeBranch(buf *bufio.Writer, f *pi.File, at int, t time.Time, res *Result) error {
	path, cycle := f.Index.Path(at)
	if cycle {
		return fmt.Errorf("the parent chain of %s loops; run sessctl repair first", f.DisplayID(at))
	}
	isLabel := func(k int) bool { return f.Entries[path[k]].Type() == "label" }
	kept := make([]bool, f.Index.Len()) // entry copied into the fork
	lastKept := ""
	replaced := map[string]string{} // dropped label id → its replacement
	nextKept := map[string]string{} // dropped label id → next kept entry on the path
	var pendingLabels []string
	for k := range path {
		id := f.DisplayID(path[k])
		if isLabel(k) {
			replaced[id] = lastKept
			pendingLabels = append(pendingLabels, id)
			continue
		}
		for _, l := range pendingLabels {
			nextKept[l] = id
		}
		pendingLabels = nil
		kept[path[k]] = true
		lastKept = id
	}
	last := ""
	var copied []int // the path without its label entries
	for k := range path {
		if !isLabel(k) {
			copied = append(copied, path[k])
		}
	}
	err := f.EachLine(copied, func(i int, line []byte) error {
		line = bytes.TrimSuffix(bytes.TrimPrefix(line, jsonl.BOM), []byte("\r"))
		id := f.DisplayID(i)
		var err error
		if np, ok := replaced[f.Index.ParentID(i)]; ok {
			raw := []byte("null")
			if np != "" {
				raw = jsonl.AppendKeyJSON(nil, np) // an id key: lone surrogates as \udxxx
			}
			if line, err = jsonedit.Set(line, "parentId", raw); err != nil {
				return err
			}
			res.Relinked++
		}
		if f.Entries[i].Type() == "compaction" {
			if v, ok := jsonl.Field(line, "firstKeptEntryId"); ok {
				if s, _ := jsonl.KeyString(v); s != "" { // compared with id keys
					if nk, dropped := nextKept[s]; dropped {
						raw := jsonl.AppendKeyJSON(nil, nk)
						if line, err = jsonedit.Set(line, "firstKeptEntryId", raw); err != nil {
							return err
						}
					}
				}
			}
		}
		buf.Write(line)
		buf.WriteByte('\n')
		res.Entries++
		last = id
		return nil
	})
	if err != nil {
		return err
	}
	// Re-add the effective labels of kept entries.
	added := map[string]bool{}
	for _, lt := range labelsInOrder(f) {
		if !kept[lt.node] {
			continue
		}
		nid := freshID(f, added)
		e := struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			ParentID  json.RawMessage `json:"parentId"`
			Timestamp string          `json:"timestamp"`
			TargetID  json.RawMessage `json:"targetId"`
			Label     string          `json:"label"`
		}{"label", nid, jsonl.AppendKeyJSON(nil, last), t.Format("2006-01-02T15:04:05.000Z"), jsonl.AppendKeyJSON(nil, lt.target), lt.label}
		b, _ := json.Marshal(e)
		buf.Write(b)
		buf.WriteByte('\n')
		last = nid
		res.LabelsKept++
	}
	return nil
}

type labelTarget struct {
	node          int
	target, label string
}

// labelsInOrder returns the effective labels in the file order of their targets.
func labelsInOrder(f *pi.File) []labelTarget {
	var out []labelTarget
	for i := range f.Index.Len() {
		id := f.Index.ID(i)
		if l, ok := f.Labels[id]; ok && !f.Index.Shadowed(i) {
			out = append(out, labelTarget{i, f.DisplayID(i), l})
		}
	}
	return out
}

// freshID returns an 8-hex id used by no entry of f and not yet added.
func freshID(f *pi.File, added map[string]bool) string {
	for {
		id := strings.ReplaceAll(uuid.NewString(), "-", "")[:8]
		if _, taken := f.Index.Lookup(id); !taken && !added[id] {
			added[id] = true
			return id
		}
	}
}
