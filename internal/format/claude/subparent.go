package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

// WarnParentInSession: the walk of a subagent transcript reached a record
// whose parent lives in the parent session's file (compaction subagents
// start that way); the subagent's own conversation starts here.
const WarnParentInSession = "parent-in-session"

// ParentSessionOf returns the session transcript a subagent transcript
// belongs to: <project>/<session>.jsonl for <project>/<session>/subagents/
// [workflows/<run>/]agent-*.jsonl, or, for the legacy layout (agent-*.jsonl
// beside the sessions), the file named by sessionID in the same folder.
// It returns "" when path is not a subagent transcript or the parent file
// does not exist.
func ParentSessionOf(path, sessionID string) string {
	base := filepath.Base(path)
	if !strings.HasPrefix(base, "agent-") || !strings.HasSuffix(base, ".jsonl") {
		return ""
	}
	dir := filepath.Dir(path)
	for d := dir; ; {
		if filepath.Base(d) == "subagents" {
			sess := filepath.Dir(d)
			p := filepath.Join(filepath.Dir(sess), filepath.Base(sess)+".jsonl")
			if isRegular(p) {
				return p
			}
			return ""
		}
		up := filepath.Dir(d)
		if up == d || len(up) < len(dir)-200 {
			break
		}
		d = up
	}
	if sessionID != "" && isUUID(sessionID) {
		p := filepath.Join(dir, sessionID+".jsonl")
		if isRegular(p) {
			return p
		}
	}
	return ""
}

func isRegular(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// ExternalParents returns, of the uuids in want, those that are records
// of the transcript at path (one streaming pass that stops when all are
// found; only the wanted uuids are kept). Lines are validated by the
// capture scan, which picks out the uuid member without building a tree.
func ExternalParents(path string, want map[string]bool) (map[string]bool, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	found := map[string]bool{}
	rd := jsonl.NewReader(fh)
	rd.SetCapture(uuidCapture)
	var p fastjson.Parser
	for rd.Next() && len(found) < len(want) {
		rec := rd.Record()
		if rec.Kind != jsonl.Object {
			continue
		}
		if u := rawString(&p, rec.Top[0]); u != "" && want[u] {
			found[u] = true
		}
	}
	return found, rd.Err()
}

var uuidCapture = &jsonl.Capture{Top: []string{"uuid"}}

// rawString is the string a raw JSON value holds, decoded as the index
// decodes it (fastjson), "" when it is not a string.
func rawString(p *fastjson.Parser, raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	v, err := p.ParseBytes(raw)
	if err != nil {
		return ""
	}
	b, err := v.StringBytes()
	if err != nil {
		return ""
	}
	return string(b)
}

// resolveSubagentParents looks the dangling parents of a subagent
// transcript up in its parent session: those found there are not
// problems (Claude Code writes compaction subagents that way), and the
// walk stops at them with a note instead of repairing the parent.
func (f *File) resolveSubagentParents() {
	sid := ""
	if len(f.sessionIDs) > 0 {
		sid = f.sessionIDs[0]
	}
	parent := ParentSessionOf(f.Path, sid)
	if parent == "" || parent == f.Path {
		return
	}
	want := map[string]bool{}
	for _, pr := range f.problems {
		if pr.Code == ProbDanglingParent {
			if nd := f.nodeByUUID(pr.UUID); nd >= 0 && f.effPar[nd] >= 0 {
				want[f.ids.str(f.effPar[nd])] = true
			}
		}
	}
	f.ParentSession = parent
	if len(want) == 0 {
		return
	}
	found, err := ExternalParents(parent, want)
	if err != nil || len(found) == 0 {
		return
	}
	f.external = map[int32]bool{}
	for u := range found {
		f.external[f.ids.lookup(u)] = true
	}
	kept := f.problems[:0]
	for _, pr := range f.problems {
		if pr.Code == ProbDanglingParent {
			if nd := f.nodeByUUID(pr.UUID); nd >= 0 && f.external[f.effPar[nd]] {
				continue
			}
		}
		kept = append(kept, pr)
	}
	f.problems = kept
	f.choice = nil
}

// ExternalParent reports whether uuid is not in this subagent transcript
// but is a record of its parent session (ParentSession).
func (f *File) ExternalParent(uuid string) bool {
	id := f.ids.lookup(uuid)
	return id >= 0 && f.external[id]
}

// externalParentOf reports whether node nd's parent is a record of the
// parent session.
func (f *File) externalParentOf(nd int32) bool {
	return f.external != nil && f.effPar[nd] >= 0 && f.external[f.effPar[nd]] && f.parent[nd] < 0
}

// anchorUUID is the parent-session record the first record of this
// subagent file hangs on (file order), or "".
func (f *File) anchorUUID() string {
	for nd := range f.effPar {
		if f.externalParentOf(int32(nd)) {
			return f.ids.str(f.effPar[nd])
		}
	}
	return ""
}
