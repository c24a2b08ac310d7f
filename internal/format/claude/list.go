package claude

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

// liteBuf is how much of the head and of the tail the session picker reads.
const liteBuf = 64 << 10

// Title sources, in order of priority.
const (
	TitleCustom      = "custom-title"
	TitleAI          = "ai-title"
	TitleLastPrompt  = "last-prompt"
	TitleSummary     = "summary"
	TitleFirstPrompt = "first-prompt"
)

// pickTitle is the /resume picker's title (Claude Agent SDK 0.3.330
// listSessions): the custom title, else the AI title, else the last
// last-prompt's text as stored, else the last summary line (whatever its
// leafUuid), else the first prompt (see pickerPrompt).
func pickTitle(custom, ai, lastPrompt, summary, first string) (string, string) {
	switch {
	case custom != "":
		return custom, TitleCustom
	case ai != "":
		return ai, TitleAI
	case lastPrompt != "":
		return lastPrompt, TitleLastPrompt
	case summary != "":
		return summary, TitleSummary
	case first != "":
		return first, TitleFirstPrompt
	}
	return "", ""
}

// Info is the fast summary of a session file for list.
type Info struct {
	Path          string    `json:"path"`
	SessionID     string    `json:"sessionId"`
	FileSessionID string    `json:"fileSessionId,omitempty"` // sessionId on the first message, when it differs
	Title         string    `json:"title,omitempty"`
	TitleSource   string    `json:"titleSource,omitempty"`
	FirstPrompt   string    `json:"firstPrompt,omitempty"`
	LastPrompt    string    `json:"lastPrompt,omitempty"`
	Tag           string    `json:"tag,omitempty"`
	Cwd           string    `json:"cwd,omitempty"`
	GitBranch     string    `json:"gitBranch,omitempty"`
	Version       string    `json:"version,omitempty"`
	Created       string    `json:"created,omitempty"`  // first timestamp seen
	Modified      string    `json:"modified,omitempty"` // last timestamp seen
	MTime         time.Time `json:"mtime"`
	Size          int64     `json:"size"`
	SidechainOnly bool      `json:"sidechainOnly,omitempty"`
	// Messages counts user/assistant/attachment/system lines; exact only
	// when CountsExact (the whole file fitted in the head and tail reads).
	Messages    int  `json:"messages"`
	CountsExact bool `json:"countsExact"`
	// LastUUID is the last non-sidechain record in file order, and
	// Summaries the summary lines of the file by leafUuid: older CLIs
	// appended a session's summary to the next session's file, so a lister
	// titles a session with any file's summary whose leafUuid is its
	// LastUUID.
	LastUUID string `json:"lastUuid,omitempty"`
	// ContinuedIn is the session this one was resumed into (continued-in),
	// RelocatedCwd the folder /cd moved it to (relocated); from the tail.
	ContinuedIn  string            `json:"continuedIn,omitempty"`
	RelocatedCwd string            `json:"relocatedCwd,omitempty"`
	Summaries    map[string]string `json:"summaries,omitempty"`
}

// ListInfo reads the first and last 64 KiB of a session file (the whole file
// when it is small) and summarises it the way the /resume picker does
// (pickTitle; checked against the Claude Agent SDK's listSessions).
func ListInfo(path string) (*Info, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	info := &Info{Path: path, Size: st.Size(), MTime: st.ModTime(),
		SessionID: strings.TrimSuffix(filepath.Base(path), ".jsonl")}
	var head, tail []byte
	if st.Size() <= 2*liteBuf {
		head, err = io.ReadAll(io.LimitReader(fh, 2*liteBuf+1))
		if err != nil {
			return nil, err
		}
		info.CountsExact = true
	} else {
		head = make([]byte, liteBuf)
		n, err := fh.ReadAt(head, 0)
		if err != nil && err != io.EOF {
			return nil, err
		}
		head = head[:n]
		if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
			head = head[:i+1]
		}
		tail = make([]byte, liteBuf)
		n, err = fh.ReadAt(tail, st.Size()-liteBuf)
		if err != nil && err != io.EOF {
			return nil, err
		}
		tail = tail[:n]
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
	}
	var ls liteScan
	ls.scan(head, true)
	ls.scan(tail, false)
	if ls.firstPrompt == "" {
		ls.firstPrompt = ls.command
	}
	info.Cwd, info.GitBranch, info.Version = ls.cwd, ls.branch, ls.version
	if ls.sessionID != "" && ls.sessionID != info.SessionID {
		info.FileSessionID = ls.sessionID
	}
	info.FirstPrompt, info.LastPrompt, info.Tag = ls.firstPrompt, ls.lastPrompt, ls.tag
	info.Created, info.Modified = fmtTS(ls.firstTS), fmtTS(ls.lastTS)
	info.SidechainOnly = ls.side && !ls.main
	info.Messages = ls.messages
	info.LastUUID = ls.lastUUID
	info.ContinuedIn, info.RelocatedCwd = ls.continuedIn, ls.relocated
	for _, sl := range ls.summaries {
		if info.Summaries == nil {
			info.Summaries = map[string]string{}
		}
		info.Summaries[sl.leaf] = sl.text
	}
	info.Title, info.TitleSource = pickTitle(ls.customTitle, ls.aiTitle, ls.lastPrompt, ls.summary, ls.firstPrompt)
	return info, nil
}

type summaryLine struct{ leaf, text string }

type liteScan struct {
	cwd, branch, version         string
	sessionID                    string
	firstPrompt, lastPrompt, tag string
	command                      string // first slash command or bash input, used when no prompt follows
	summary                      string
	continuedIn, relocated       string
	customTitle, aiTitle         string
	customSet, aiSet             bool
	summaries                    []summaryLine
	uuids                        map[string]bool
	firstTS, lastTS              int64
	side, main                   bool
	messages                     int
	tagSet                       bool
	lastUUID                     string
}

func (ls *liteScan) scan(buf []byte, head bool) {
	if ls.uuids == nil {
		ls.uuids = map[string]bool{}
		ls.firstTS, ls.lastTS = noTS, noTS
	}
	rd := jsonl.NewReader(bytes.NewReader(buf))
	for rd.Next() {
		rec := rd.Record()
		if rec.Kind != jsonl.Object || rec.BOM {
			continue // the SDK's reader does not skip a byte order mark: that line is lost to it
		}
		v := rec.Value
		if ts := strBytes(v, "timestamp"); len(ts) > 0 {
			if t := parseTS(ts); t != noTS {
				if ls.firstTS == noTS || t < ls.firstTS {
					ls.firstTS = t
				}
				if ls.lastTS == noTS || t > ls.lastTS {
					ls.lastTS = t
				}
			}
		}
		typ := string(strBytes(v, "type"))
		switch typ {
		case TypeUser, TypeAssistant, TypeAttachment, TypeSystem:
			ls.messages++
			if u := strBytes(v, "uuid"); len(u) > 0 {
				ls.uuids[string(u)] = true
				if !boolField(v, "isSidechain") {
					ls.lastUUID = string(u)
				}
			}
			if boolField(v, "isSidechain") {
				ls.side = true
			} else {
				ls.main = true
			}
			if head && ls.cwd == "" {
				ls.cwd = string(strBytes(v, "cwd"))
			}
			if head && ls.version == "" {
				ls.version = string(strBytes(v, "version"))
			}
			if head && ls.sessionID == "" {
				ls.sessionID = string(strBytes(v, "sessionId"))
			}
			if b := strBytes(v, "gitBranch"); len(b) > 0 {
				ls.branch = string(b)
			}
			if head && typ == TypeUser && ls.firstPrompt == "" && !boolField(v, "isMeta") &&
				!boolField(v, "isCompactSummary") && !boolField(v, "isSidechain") {
				p, cmd := pickerPrompt(v)
				if p != "" {
					ls.firstPrompt = p
				} else if cmd != "" && ls.command == "" {
					ls.command = cmd
				}
			}
		case "custom-title":
			// the tail wins over the head; within a read the last wins
			if !head || !ls.customSet {
				ls.customTitle = string(strBytes(v, "customTitle"))
				if !head {
					ls.customSet = true
				}
			}
		case "ai-title":
			if !head || !ls.aiSet {
				ls.aiTitle = string(strBytes(v, "aiTitle"))
				if !head {
					ls.aiSet = true
				}
			}
		case TypeLastPrompt:
			if p := strBytes(v, "lastPrompt"); len(p) > 0 {
				ls.lastPrompt = string(p)
			}
		case "tag":
			if !head || !ls.tagSet {
				ls.tag = string(strBytes(v, "tag"))
				if !head {
					ls.tagSet = true
				}
			}
		case "continued-in":
			if x := strBytes(v, "continuedInSessionId"); len(x) > 0 {
				ls.continuedIn = string(x)
			}
		case "relocated":
			if x := strBytes(v, "relocatedCwd"); len(x) > 0 {
				ls.relocated = string(x)
			}
		case "task-summary":
			// the SDK reads the last "summary" field of the tail, whatever the line's type
			if t := strBytes(v, "summary"); len(t) > 0 {
				ls.summary = string(t)
			}
		case TypeSummary:
			if t := strBytes(v, "summary"); len(t) > 0 {
				ls.summary = string(t)
			}
			ls.summaries = append(ls.summaries, summaryLine{leaf: string(strBytes(v, "leafUuid")), text: string(strBytes(v, "summary"))})
		}
	}
}

// pickerPrompt is the text the /resume picker shows for a user message:
// the first text (content string or first text block), each newline made a
// space, trimmed, cut at 200 characters with "…"; "Image" for a message of
// images only; "! cmd" for a <bash-input>. A message that starts with
// another lowercase XML-like tag, an interruption marker or a tool result
// gives "", but a slash command (<command-name>/x</command-name>) is
// returned as cmd ("/x"): the picker shows it when no prompt follows.
func pickerPrompt(v *fastjson.Value) (prompt, cmd string) { return pickerPromptOf(v, nil) }

// pickerPromptOf is pickerPrompt; lg, when not nil, is the File whose
// placeholders v (the elided copy of a long line) holds: a text that is
// one is read from the file in pieces (longPicker).
func pickerPromptOf(v *fastjson.Value, lg *File) (prompt, cmd string) {
	c := v.Get("message", "content")
	var s string
	images := false
	switch {
	case c == nil:
		return "", ""
	case c.Type() == fastjson.TypeString:
		b, _ := c.StringBytes()
		s = string(b)
	case c.Type() == fastjson.TypeArray:
		found := false
		for _, b := range c.GetArray() {
			switch string(strBytes(b, "type")) {
			case "tool_result":
				return "", ""
			case "text":
				if !found {
					s, found = string(strBytes(b, "text")), true
				}
			case "image":
				images = true
			}
		}
		if !found && images {
			return "Image", ""
		}
	}
	if ref := lg.longRef(s); ref != nil {
		return lg.longPicker(ref)
	}
	s = strings.TrimSpace(s)
	if m := between(s, "<command-name>", "</command-name>"); m != "" {
		return "", pickerClip(m)
	}
	if m := between(s, "<bash-input>", "</bash-input>"); m != "" && strings.HasPrefix(s, "<bash-input>") {
		return pickerClip("! " + m), ""
	}
	if !IsRealPrompt(s) {
		return "", ""
	}
	return pickerClip(s), ""
}

func between(s, open, close string) string {
	i := strings.Index(s, open)
	if i < 0 {
		return ""
	}
	rest := s[i+len(open):]
	j := strings.Index(rest, close)
	if j < 0 {
		return ""
	}
	return strings.TrimSpace(rest[:j])
}

// pickerClip makes s one line (each \r\n or \n a space), trims it and cuts
// it at 200 UTF-16 code units, trimmed again, with "…".
func pickerClip(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", " "), "\n", " "))
	n := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > 200 {
			return strings.TrimRightFunc(s[:i], unicode.IsSpace) + "…"
		}
		n += w
	}
	return s
}

// IsRealPrompt reports whether s counts as a prompt for titles: not empty,
// not starting with a lowercase XML-like tag (<command-name>, <local-command-stdout>, ...)
// and not an interruption marker.
func IsRealPrompt(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasPrefix(s, "[Request interrupted") {
		return false
	}
	if len(s) >= 2 && s[0] == '<' && s[1] >= 'a' && s[1] <= 'z' {
		return false
	}
	return true
}
