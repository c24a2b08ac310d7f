package pi

import (
	"encoding/json"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/valyala/fastjson"
)

// ListInfoVersion changes whenever ListInfo's results change for the same
// bytes, so that caches of older results are thrown away.
const ListInfoVersion = 1

// MaxFirstMessage caps the first user message kept for listings, in bytes.
// Longer texts are cut at a rune boundary and end with "…".
const MaxFirstMessage = 16 << 10

// ListInfo is the listing summary of one pi-family session file, computed as
// pi 0.73.1's session picker computes its rows (buildSessionInfo), plus the
// problems seen on the way.
type ListInfo struct {
	// ID is the header's id ("" when the file has no header or the id is not a string).
	ID string
	// HasHeader is true when the first parsed value (after an omp title
	// slot) is a {"type":"session"} object, which is all pi's listing asks;
	// ValidHeader additionally requires a string id, as the loader does.
	HasHeader   bool
	ValidHeader bool
	Dialect     Dialect
	Cwd         string
	// ParentSession is the header's parentSession (the fork source path).
	ParentSession string
	// Name is the display name: the latest session_info name in file order
	// (an empty name clears it, as in pi 0.73), else oh-my-pi's title (title
	// slot, last title_change, header title).
	Name string
	// FirstMessage is the text of the first user message with text (text
	// blocks joined by a space), "" when there is none.
	FirstMessage string
	// Created is the header timestamp (zero when absent or unparsable).
	Created time.Time
	// Modified is the last activity: the latest user/assistant
	// message.timestamp (else that entry's timestamp), else the header
	// timestamp, else the file's modification time.
	Modified time.Time
	// Messages is the number of "message" entries (all roles, all branches).
	Messages int
	// Entries is the number of entries after the header (title slot,
	// header, blank and unparsable lines are not entries).
	Entries int
	// Problems counts what the reader saw, by problem code: torn-tail,
	// malformed-line, nul-run, non-object-line, missing-header,
	// orphaned-parent.
	Problems map[string]int
}

// ProblemCount is the total number of problems.
func (li *ListInfo) ProblemCount() int {
	n := 0
	for _, c := range li.Problems {
		n += c
	}
	return n
}

// ReadListInfo opens path and computes its listing summary in one streaming
// pass. Every line is parsed (the counts, the first message, the name and
// the last activity can be anywhere in the file), but only the few fields
// the listing needs are looked at; message contents are decoded only until
// the first user text is found.
func ReadListInfo(path string) (*ListInfo, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	li, err := ScanListInfo(fh, path)
	if err != nil {
		return nil, err
	}
	if li.Modified.IsZero() {
		li.Modified = st.ModTime()
	}
	return li, nil
}

// ScanListInfo computes the listing summary from r; path is a dialect hint.
// Modified stays zero when neither messages nor the header give a time
// (ReadListInfo then uses the file's modification time).
func ScanListInfo(r io.Reader, path string) (*ListInfo, error) {
	li := &ListInfo{}
	var (
		parsedSeen   bool
		headerDone   bool
		slotTitle    string
		changeTitle  string
		headerTitle  string
		sessionName  string
		lastActivity float64
		haveActivity bool
		markers      dialectMarkers
		ids          = make(map[string]struct{}, 256)
		parents      []string
		firstFound   bool
		problems     = map[string]int{}
	)
	rd := jsonl.NewReader(r)
	for rd.Next() {
		rec := rd.Record()
		switch rec.Kind {
		case jsonl.Blank:
			continue
		case jsonl.Malformed:
			problems[problem.MalformedLine]++
			continue
		case jsonl.TornTail:
			problems[problem.TornTail]++
			continue
		case jsonl.NULRun:
			problems[problem.NULRun]++
			continue
		}
		if !headerDone {
			if !parsedSeen && rec.Line == 1 && rec.Kind == jsonl.Object && rec.Str("type") == "title" {
				slotTitle = rec.Str("title")
				markers.omp = true
				continue
			}
			parsedSeen = true
			headerDone = true
			if rec.Kind == jsonl.Object && rec.Str("type") == "session" {
				li.HasHeader = true
				id, ok := rec.StrOK("id")
				li.ValidHeader = ok
				li.ID = id
				li.Cwd = rec.Str("cwd")
				li.ParentSession = rec.Str("parentSession")
				headerTitle = rec.Str("title")
				if headerTitle != "" {
					markers.omp = true
				}
				if ts, ok := rec.StrOK("timestamp"); ok {
					li.Created = parseTime(ts)
				}
				if !li.ValidHeader {
					problems[problem.MissingHeader]++ // pi lists it, but cannot open it
				}
				continue
			}
			problems[problem.MissingHeader]++
		}
		if rec.Kind == jsonl.NonObject {
			problems[problem.NonObject]++
			li.Entries++
			continue
		}
		v := rec.Value
		typ := strBytes(jsonl.Get(v, "type"))
		if string(typ) == "session" {
			continue // a second header: not an entry
		}
		li.Entries++
		if id, ok := key(jsonl.Get(v, "id")); ok {
			ids[id] = struct{}{}
		}
		if pv := jsonl.Get(v, "parentId"); pv != nil && truthyValue(pv) {
			p, _ := key(pv)
			parents = append(parents, p)
		}
		switch string(typ) {
		case "message":
			li.Messages++
			m := jsonl.Get(v, "message")
			if m == nil || m.Type() != fastjson.TypeObject {
				continue
			}
			role := strBytes(jsonl.Get(m, "role"))
			content := jsonl.Get(m, "content")
			if role == nil || content == nil || (string(role) != "user" && string(role) != "assistant") {
				continue
			}
			if ts := jsonl.Get(m, "timestamp"); ts != nil && ts.Type() == fastjson.TypeNumber {
				f := ts.GetFloat64()
				if !haveActivity || f > lastActivity {
					lastActivity, haveActivity = f, true
				}
			} else if s, ok := valueString(jsonl.Get(v, "timestamp")); ok {
				if t := parseTime(s); !t.IsZero() {
					f := float64(t.UnixMilli())
					if !haveActivity || f > lastActivity {
						lastActivity, haveActivity = f, true
					}
				}
			}
			if !firstFound && string(role) == "user" {
				txt := textContent(content)
				if strings.Contains(txt, `\u`) {
					txt = textContentStd(rec.Body()) // fastjson keeps lone surrogate escapes as text
				}
				if txt != "" {
					li.FirstMessage = clipText(txt, MaxFirstMessage)
					firstFound = true
				}
			}
		case "session_info":
			s, _ := valueString(jsonl.Get(v, "name"))
			if strings.Contains(s, `\u`) {
				var x struct{ Name any }
				if json.Unmarshal(rec.Body(), &x) == nil {
					s, _ = x.Name.(string)
				}
			}
			sessionName = strings.TrimSpace(s)
		case "title_change":
			if s, ok := valueString(jsonl.Get(v, "title")); ok {
				changeTitle = s
			}
			markers.omp = true
		case "context_change":
			markers.xcsh = true
		case "model_change":
			if jsonl.Get(v, "model") != nil {
				markers.omp = true
			}
		case "ttsr_injection", "mode_change", "session_init", "service_tier_change", "mcp_tool_selection",
			"reset_boundary", "credential_pin", "model_usage", "archive":
			markers.omp = true
		}
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if !headerDone {
		problems[problem.MissingHeader]++
	}
	for _, p := range parents {
		if _, ok := ids[p]; !ok {
			problems[problem.Orphan]++
		}
	}
	switch {
	case sessionName != "":
		li.Name = sessionName
	case slotTitle != "":
		li.Name = slotTitle
	case changeTitle != "":
		li.Name = changeTitle
	default:
		li.Name = headerTitle
	}
	if haveActivity && lastActivity > 0 {
		li.Modified = time.UnixMilli(int64(lastActivity)).UTC()
	} else if !li.Created.IsZero() {
		li.Modified = li.Created
	}
	f := &File{markers: markers}
	li.Dialect = detectDialect("", path, f)
	if len(problems) > 0 {
		li.Problems = problems
	}
	return li, nil
}

// textContent is pi's extractTextContent: a string content as is, else the
// text of the "text" blocks joined by a space.
func textContent(c *fastjson.Value) string {
	switch c.Type() {
	case fastjson.TypeString:
		b, _ := c.StringBytes()
		return string(b)
	case fastjson.TypeArray:
		arr, _ := c.Array()
		var parts []string
		for _, b := range arr {
			if b.Type() != fastjson.TypeObject || string(strBytes(jsonl.Get(b, "type"))) != "text" {
				continue
			}
			t := jsonl.Get(b, "text")
			switch {
			case t == nil || t.Type() == fastjson.TypeNull:
				parts = append(parts, "")
			case t.Type() == fastjson.TypeString:
				s, _ := t.StringBytes()
				parts = append(parts, string(s))
			default:
				parts = append(parts, string(t.MarshalTo(nil)))
			}
		}
		return strings.Join(parts, " ")
	}
	return ""
}

// textContentStd is textContent over encoding/json, which decodes lone
// surrogate escapes to U+FFFD as JSON.parse + UTF-8 output would show them.
func textContentStd(line []byte) string {
	var x struct {
		Message struct {
			Content any `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &x) != nil {
		return ""
	}
	switch c := x.Message.Content.(type) {
	case string:
		return c
	case []any:
		var parts []string
		for _, b := range c {
			m, ok := b.(map[string]any)
			if !ok || m["type"] != "text" {
				continue
			}
			switch t := m["text"].(type) {
			case string:
				parts = append(parts, t)
			case nil:
				parts = append(parts, "")
			default:
				j, _ := json.Marshal(t)
				parts = append(parts, string(j))
			}
		}
		return strings.Join(parts, " ")
	}
	return ""
}

// clipText cuts s to at most n bytes at a rune boundary, adding "…".
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// parseTime parses an ISO 8601 / RFC 3339 timestamp as JavaScript's Date
// does for the forms the agents write; zero when it does not parse.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}
