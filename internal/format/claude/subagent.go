package claude

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Subagent layouts.
const (
	LayoutSubagents = "subagents" // <session>/subagents/agent-<id>.jsonl (+ .meta.json)
	LayoutWorkflow  = "workflow"  // <session>/subagents/workflows/<run>/agent-<id>.jsonl
	LayoutLegacy    = "legacy"    // agent-<id>.jsonl beside the session file
)

// Link kinds: how a subagent file was tied to the tool call that spawned it.
const (
	LinkMetaToolUseID = "meta.toolUseId"
	LinkResultAgentID = "toolUseResult.agentId"
	// LinkParentUUID: the subagent's first records hang on a record of the
	// session (compaction subagents); ParentUUID is that record.
	LinkParentUUID = "parentUuid"
)

// SubagentFile is one subagent transcript of a session.
type SubagentFile struct {
	Path        string
	AgentID     string
	Layout      string
	AgentType   string // from .meta.json
	Description string // from .meta.json
	ToolUseID   string // from .meta.json (newer builds) or found through the tool result
	// ParentUUID is the uuid of the parent session's assistant line holding
	// the Task/Agent tool_use that spawned this agent ("" when not linked).
	ParentUUID string
	ParentLine int
	Link       string
	// AnchorUUID is the session record the subagent's first records name
	// as parent (compaction subagents), "" when none.
	AnchorUUID string
	Messages   int
	Lines      int
	Problems   int
	FirstTime  string
	LastTime   string
	Err        string
}

// SubagentJSON is the --json shape of a subagent file.
type SubagentJSON struct {
	AgentID     string `json:"agentId"`
	Path        string `json:"path"`
	Layout      string `json:"layout"`
	AgentType   string `json:"agentType,omitempty"`
	Description string `json:"description,omitempty"`
	ToolUseID   string `json:"toolUseId,omitempty"`
	ParentID    string `json:"parentId,omitempty"`
	Link        string `json:"link,omitempty"`
	Messages    int    `json:"messages"`
	Problems    int    `json:"problems"`
	Error       string `json:"error,omitempty"`
}

// JSON converts s to its --json shape.
func (s *SubagentFile) JSON() SubagentJSON {
	return SubagentJSON{AgentID: s.AgentID, Path: s.Path, Layout: s.Layout, AgentType: s.AgentType,
		Description: s.Description, ToolUseID: s.ToolUseID, ParentID: s.ParentUUID, Link: s.Link,
		Messages: s.Messages, Problems: s.Problems, Error: s.Err}
}

// Subagents is the set of subagent files of one session.
type Subagents struct {
	Files []SubagentFile
}

// Unlinked returns the files not tied to a tool call of the session.
func (s *Subagents) Unlinked() []SubagentFile {
	var out []SubagentFile
	for _, x := range s.Files {
		if x.ParentUUID == "" {
			out = append(out, x)
		}
	}
	return out
}

// subagentFiles finds the subagent transcripts of the session file at
// path, with their agent id and layout, without reading them (but the head
// of a legacy agent-*.jsonl beside the session, for its session id).
func subagentFiles(sessionPath string) ([]SubagentFile, error) {
	dir := filepath.Dir(sessionPath)
	sid := strings.TrimSuffix(filepath.Base(sessionPath), ".jsonl")
	var out []SubagentFile
	subdir := filepath.Join(dir, sid, "subagents")
	err := filepath.WalkDir(subdir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == subdir && os.IsNotExist(err) {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		name := d.Name()
		if !strings.HasPrefix(name, "agent-") || !strings.HasSuffix(name, ".jsonl") {
			return nil
		}
		layout := LayoutSubagents
		if filepath.Dir(p) != subdir {
			layout = LayoutWorkflow
		}
		out = append(out, SubagentFile{Path: p, AgentID: strings.TrimSuffix(strings.TrimPrefix(name, "agent-"), ".jsonl"), Layout: layout})
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	legacy, _ := filepath.Glob(filepath.Join(dir, "agent-*.jsonl"))
	sort.Strings(legacy)
	for _, p := range legacy {
		if headSessionID(p) != sid {
			continue
		}
		name := filepath.Base(p)
		out = append(out, SubagentFile{Path: p, AgentID: strings.TrimSuffix(strings.TrimPrefix(name, "agent-"), ".jsonl"), Layout: LayoutLegacy})
	}
	return out, nil
}

// FindSubagents lists the subagent transcripts of the session file at path:
// <dir>/<session>/subagents/**/agent-*.jsonl, and older agent-*.jsonl files
// beside the session whose lines carry this session's id. Files are indexed
// to count their messages.
func FindSubagents(sessionPath string) ([]SubagentFile, error) {
	out, err := subagentFiles(sessionPath)
	if err != nil {
		return nil, err
	}
	for i := range out {
		s := &out[i]
		if b, err := os.ReadFile(strings.TrimSuffix(s.Path, ".jsonl") + ".meta.json"); err == nil {
			var m struct {
				AgentType   string `json:"agentType"`
				Description string `json:"description"`
				ToolUseID   string `json:"toolUseId"`
			}
			if json.Unmarshal(b, &m) == nil {
				s.AgentType, s.Description, s.ToolUseID = m.AgentType, m.Description, m.ToolUseID
			}
		}
		sf, err := Open(s.Path)
		if err != nil {
			s.Err = err.Error()
			continue
		}
		s.Messages = sf.Messages()
		s.Lines = sf.Lines()
		s.Problems = len(sf.problems)
		s.AnchorUUID = sf.anchorUUID()
		s.FirstTime, s.LastTime = fmtTS(sf.firstTS), fmtTS(sf.lastTS)
		if a := sf.agentID(); a != "" && s.Layout == LayoutLegacy {
			s.AgentID = a
		}
		sf.Close()
	}
	return out, nil
}

// agentID is the agentId field of the first line that has one (legacy files).
func (f *File) agentID() string {
	if f.ra == nil {
		return ""
	}
	for li := int32(0); int(li) < len(f.lines) && li < 50; li++ {
		raw, err := f.rawLine(li)
		if err != nil {
			return ""
		}
		if v := fieldAfter(raw, `"agentId":"`); v != "" {
			return v
		}
	}
	return ""
}

// headSessionID returns the sessionId in the first 64 KiB of a file.
func headSessionID(path string) string {
	fh, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer fh.Close()
	buf := make([]byte, liteBuf)
	n, _ := io.ReadFull(fh, buf)
	return fieldAfter(buf[:n], `"sessionId":"`)
}

// fieldAfter returns the JSON string value following marker in b (no
// unescaping; ids never need it), or "".
func fieldAfter(b []byte, marker string) string {
	i := bytes.Index(b, []byte(marker))
	if i < 0 {
		return ""
	}
	rest := b[i+len(marker):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 || j > 200 {
		return ""
	}
	return string(rest[:j])
}

// LinkSubagents ties each subagent file to the assistant line holding the
// Task/Agent tool_use that spawned it: through .meta.json toolUseId, else
// through the agentId echoed in the tool result's toolUseResult.
func (f *File) LinkSubagents(files []SubagentFile) *Subagents {
	out := &Subagents{Files: append([]SubagentFile(nil), files...)}
	for i := range out.Files {
		s := &out.Files[i]
		id, link := s.ToolUseID, LinkMetaToolUseID
		if id == "" || !f.hasToolUse(id) {
			if tu, ok := f.agentTool[s.AgentID]; ok {
				id, link = tu, LinkResultAgentID
			}
		}
		if id == "" || !f.hasToolUse(id) {
			if nd := f.nodeByUUID(s.AnchorUUID); s.AnchorUUID != "" && nd >= 0 {
				s.ParentUUID = s.AnchorUUID
				s.ParentLine = int(f.lines[f.nLast[nd]].ln)
				s.Link = LinkParentUUID
			}
			continue
		}
		li := f.toolUse[id]
		s.ToolUseID = id
		s.ParentUUID = f.ids.str(f.lines[li].uuid)
		s.ParentLine = int(f.lines[li].ln)
		s.Link = link
	}
	return out
}

func (f *File) hasToolUse(id string) bool {
	_, ok := f.toolUse[id]
	return ok
}
