// Package agentcore reads Agent Core JSONL sessions (~/.pi/sessions/<sessionId>.jsonl).
//
// The files have no header. Every line is an entry
// {"id","parentId"?,"type","timestamp" (epoch ms),…} of type user (content,
// metadata), assistant (content, toolCalls[], thinking), tool (name, params,
// toolCallId), tool_result (toolCallId, output, details, success), system or
// metadata. Entries form a tree through parentId. The context for a leaf is
// the root→leaf path mapped to messages: user → {role:"user",content},
// assistant → {role:"assistant",content,toolCalls}, tool_result →
// {role:"tool",content:output,toolCallId}; other types are skipped. The
// default leaf is the first leaf in file order.
//
// Read makes one streaming pass that keeps ids, parents and byte offsets
// only; payloads are re-read with ReadAt for the entries a caller prints.
package agentcore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/tree"
	"github.com/valyala/fastjson"
)

// Entry types.
const (
	TypeUser       = "user"
	TypeAssistant  = "assistant"
	TypeTool       = "tool"
	TypeToolResult = "tool_result"
	TypeSystem     = "system"
	TypeMetadata   = "metadata"
)

// IsType reports whether t is an Agent Core entry type.
func IsType(t string) bool {
	switch t {
	case TypeUser, TypeAssistant, TypeTool, TypeToolResult, TypeSystem, TypeMetadata:
		return true
	}
	return false
}

// DefaultDir is ~/.pi/sessions.
func DefaultDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".pi", "sessions")
}

// Entry is one indexed line: ids, type, time and where its bytes are.
type Entry struct {
	ID        string    `json:"id"`
	ParentID  string    `json:"parentId,omitempty"`
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp,omitzero"`
	Line      int       `json:"line"`
	Offset    int64     `json:"offset"`
	Len       int64     `json:"len"` // bytes including the newline
}

// Session is an indexed Agent Core file.
type Session struct {
	Path    string
	ID      string // the file name without .jsonl
	Size    int64
	ModTime time.Time
	Entries []Entry
	Index   *tree.Index
	// Problems are the line-level problems seen while reading (bad lines,
	// entries without id); Check adds the tree problems.
	Problems []problem.Problem
}

// Sniff reports whether one parsed line looks like an Agent Core entry: a
// string id, a known type and a numeric (epoch ms) timestamp.
func Sniff(v *fastjson.Value) bool {
	if v == nil || v.Type() != fastjson.TypeObject {
		return false
	}
	id := v.Get("id")
	ts := v.Get("timestamp")
	return id != nil && id.Type() == fastjson.TypeString &&
		ts != nil && ts.Type() == fastjson.TypeNumber &&
		IsType(string(v.GetStringBytes("type")))
}

// Detect reads up to the first 64 object lines of r and reports whether most
// of them are Agent Core entries (and none is a pi header or Claude record).
func Detect(r io.Reader) bool {
	rd := jsonl.NewReader(r)
	yes, seen := 0, 0
	for rd.Next() && seen < 64 {
		rec := rd.Record()
		if rec.Kind != jsonl.Object {
			continue
		}
		seen++
		v := rec.Value
		if t := rec.Str("type"); t == "session" || v.Get("uuid") != nil || v.Get("parentUuid") != nil {
			return false
		}
		if Sniff(v) {
			yes++
		}
	}
	return yes > 0 && yes*2 > seen
}

// DetectFile is Detect on a file.
func DetectFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return Detect(io.LimitReader(f, 64<<20))
}

// Read indexes the file at path in one streaming pass.
func Read(path string) (*Session, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	base := filepath.Base(path)
	s := &Session{Path: path, ID: base[:len(base)-len(filepath.Ext(base))], Size: fi.Size(), ModTime: fi.ModTime()}
	if err := s.index(f); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Session) index(r io.Reader) error {
	rd := jsonl.NewReader(r)
	s.Index = tree.New(tree.LastWins, 256)
	for rd.Next() {
		rec := rd.Record()
		switch rec.Kind {
		case jsonl.Blank:
			continue
		case jsonl.Malformed:
			s.Problems = append(s.Problems, problem.Problem{Code: problem.MalformedLine, Severity: problem.Error, Line: rec.Line, Message: "line is not valid JSON; Agent Core cannot read it"})
			continue
		case jsonl.TornTail:
			s.Problems = append(s.Problems, problem.Problem{Code: problem.TornTail, Severity: problem.Error, Line: rec.Line, Message: "last line is cut off (no newline, not valid JSON)", Fix: "a crash interrupted the write; the partial line can be dropped"})
			continue
		case jsonl.NULRun:
			s.Problems = append(s.Problems, problem.Problem{Code: problem.NULRun, Severity: problem.Error, Line: rec.Line, Message: "line contains NUL bytes"})
			continue
		case jsonl.NonObject:
			s.Problems = append(s.Problems, problem.Problem{Code: problem.NonObject, Severity: problem.Warning, Line: rec.Line, Message: "line is JSON but not an object"})
			continue
		}
		if rec.BOM {
			s.Problems = append(s.Problems, problem.Problem{Code: problem.BOM, Severity: problem.Warning, Line: rec.Line, Message: "file starts with a UTF-8 byte order mark"})
		}
		id, ok := recKey(rec, "id")
		if !ok || id == "" {
			s.Problems = append(s.Problems, problem.Problem{Code: problem.MissingID, Severity: problem.Warning, Line: rec.Line, Message: "entry has no string id; it cannot be placed in the tree"})
			continue
		}
		parent, _ := recKey(rec, "parentId")
		e := Entry{ID: id, ParentID: parent, Type: rec.Str("type"), Line: rec.Line, Offset: rec.Offset, Len: rec.Len()}
		if ts := rec.Value.Get("timestamp"); ts != nil && ts.Type() == fastjson.TypeNumber {
			e.Timestamp = time.UnixMilli(int64(ts.GetFloat64())).UTC()
		}
		s.Entries = append(s.Entries, e)
		s.Index.Add(tree.Node{ID: e.ID, Parent: e.ParentID, HasParent: e.ParentID != "", Line: int32(e.Line)})
	}
	if err := rd.Err(); err != nil {
		return err
	}
	s.Index.Finish()
	return nil
}

// recKey is keyOf of member name of rec's object line, from the parsed
// value when fastjson's decoding is the key (jsonl.ParsedKey: the usual
// ASCII id), else from the line's bytes.
func recKey(rec *jsonl.Record, name string) (string, bool) {
	if rec.Value != nil {
		x := jsonl.Get(rec.Value, name)
		if x == nil || x.Type() != fastjson.TypeString {
			return "", false
		}
		b, _ := x.StringBytes()
		if k, ok := jsonl.ParsedKey(b); ok {
			return k, true
		}
	}
	return keyOf(rec.Body(), name)
}

// keyOf is the key of member name of the JSON object obj when it is a
// string (false otherwise): jsonl.KeyString, which keeps lone surrogate
// escapes apart as JSON.parse does, so that ids "\ud800" and "\ud801" are
// two entries (encoding/json makes both U+FFFD) and "\ud800" is not the id
// spelled "\\ud800" (fastjson keeps a lone surrogate escape as its six
// characters). The last of a repeated member wins, as in JSON.parse.
func keyOf(obj []byte, name string) (string, bool) {
	raw, ok := jsonl.Field(obj, name)
	if !ok {
		return "", false
	}
	return jsonl.KeyString(raw)
}

// Leaves returns the entries without children, in file order.
func (s *Session) Leaves() []int { return s.Index.Leaves() }

// DefaultLeaf is the first leaf in file order (Agent Core's rule), or -1.
func (s *Session) DefaultLeaf() int {
	if l := s.Index.Leaves(); len(l) > 0 {
		return l[0]
	}
	return -1
}

// Find resolves an entry id (or unique prefix) to its entry number.
func (s *Session) Find(idOrPrefix string) (int, error) {
	if i, ok := s.Index.Lookup(idOrPrefix); ok {
		return i, nil
	}
	hit := -1
	for i, e := range s.Entries {
		if len(e.ID) >= len(idOrPrefix) && e.ID[:len(idOrPrefix)] == idOrPrefix {
			if hit >= 0 && s.Entries[hit].ID != e.ID {
				return -1, fmt.Errorf("%s: ambiguous entry id prefix", idOrPrefix)
			}
			hit = i
		}
	}
	if hit < 0 {
		return -1, fmt.Errorf("%s: no such entry", idOrPrefix)
	}
	return hit, nil
}

// PathTo returns the root→leaf entry numbers (a parent cycle stops the walk).
func (s *Session) PathTo(leaf int) []int {
	p, _ := s.Index.Path(leaf)
	return p
}

// Raw re-reads entry i's line (without its newline).
func (s *Session) Raw(i int) ([]byte, error) {
	f, err := os.Open(s.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return s.rawAt(f, i)
}

func (s *Session) rawAt(ra io.ReaderAt, i int) ([]byte, error) {
	e := s.Entries[i]
	b, err := jsonl.ReadLineAt(ra, e.Offset, e.Len)
	if err != nil {
		return nil, err
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	}
	return b, nil
}

// Message is one context message, in the shape Agent Core sends it (fields
// the entry lacks are left out, as JSON.stringify drops undefined).
type Message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content,omitempty"`
	ToolCalls  json.RawMessage `json:"toolCalls,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	// EntryID is the entry the message came from (not part of the context).
	EntryID string `json:"-"`
}

// ErrNoLeaf is returned by Context for a session without entries.
var ErrNoLeaf = errors.New("session has no entries")

// Context builds the context for leaf (-1 = the default leaf): the
// root→leaf path mapped to messages, other entry types skipped.
func (s *Session) Context(leaf int) ([]Message, error) {
	if leaf < 0 {
		leaf = s.DefaultLeaf()
	}
	if leaf < 0 {
		return nil, ErrNoLeaf
	}
	f, err := os.Open(s.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Message
	for _, i := range s.PathTo(leaf) {
		t := s.Entries[i].Type
		if t != TypeUser && t != TypeAssistant && t != TypeToolResult {
			continue
		}
		raw, err := s.rawAt(f, i)
		if err != nil {
			return nil, err
		}
		var e struct {
			Content    json.RawMessage `json:"content"`
			ToolCalls  json.RawMessage `json:"toolCalls"`
			ToolCallID string          `json:"toolCallId"`
			Output     json.RawMessage `json:"output"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("line %d: %w", s.Entries[i].Line, err)
		}
		m := Message{EntryID: s.Entries[i].ID}
		switch t {
		case TypeUser:
			m.Role, m.Content = "user", e.Content
		case TypeAssistant:
			m.Role, m.Content, m.ToolCalls = "assistant", e.Content, e.ToolCalls
		case TypeToolResult:
			m.Role, m.Content, m.ToolCallID = "tool", e.Output, e.ToolCallID
		}
		out = append(out, m)
	}
	return out, nil
}
