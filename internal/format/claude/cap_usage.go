package claude

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/valyala/fastjson"
)

var _ sessfmt.Usager = (*Session)(nil)

// UsageEvents streams the transcript once and gives, in file order, every
// user prompt (a user record that is not only tool results, nor isMeta),
// every assistant line (one line per content block: lines of one API
// response share message.id and requestId, which form the Key), and every
// cost-state record (totalCostUSD, a running total). Then, for a main
// transcript, the same for each of its subagent transcripts
// (<session>/subagents/**/agent-*.jsonl and older agent-*.jsonl files beside
// it): their requests were made for this session. Malformed lines are
// skipped, as Claude Code and ccusage skip them.
//
// A session opened with sessfmt.OpenOptions.Usage gathered its events while
// it was indexed: its own file is not read again.
func (s *Session) UsageEvents(fn func(sessfmt.UsageEvent) error) error {
	if u := s.File.usage; u != nil {
		if err := u.each(fn); err != nil {
			return err
		}
	} else if err := claudeUsageFile(s.ref.Path, fn); err != nil {
		return err
	}
	if strings.HasPrefix(filepath.Base(s.ref.Path), "agent-") {
		return nil
	}
	subs, err := subagentPaths(s.ref.Path)
	if err != nil {
		return err
	}
	for _, p := range subs {
		if err := claudeUsageFile(p, fn); err != nil {
			return err
		}
	}
	return nil
}

// subagentPaths are the subagent transcripts FindSubagents finds
// (<dir>/<session>/subagents/**/agent-*.jsonl, and older agent-*.jsonl
// files beside the session whose head carries its id), without indexing
// them.
func subagentPaths(sessionPath string) ([]string, error) {
	files, err := subagentFiles(sessionPath)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out, nil
}

func claudeUsageFile(path string, fn func(sessfmt.UsageEvent) error) error {
	return sessfmt.LineUsageEvents(path, claudeUsageEvent, fn)
}

func claudeUsageEvent(v *fastjson.Value) (sessfmt.UsageEvent, bool) {
	var ev sessfmt.UsageEvent
	if t, err := time.Parse(time.RFC3339Nano, string(v.GetStringBytes("timestamp"))); err == nil {
		ev.Time = t
	}
	ev.Sidechain = v.GetBool("isSidechain")
	switch string(v.GetStringBytes("type")) {
	case "cost-state":
		c := v.Get("totalCostUSD")
		if c == nil || c.Type() != fastjson.TypeNumber {
			return ev, false
		}
		x := c.GetFloat64()
		ev.Cost, ev.CostSource, ev.CostTotal = &x, "cost-state", true
		return ev, true
	case "user":
		if v.GetBool("isMeta") {
			return ev, false
		}
		m := v.Get("message")
		if m == nil {
			return ev, false
		}
		if c := m.Get("content"); c != nil && c.Type() == fastjson.TypeArray {
			prompt := false
			for _, b := range c.GetArray() {
				if string(b.GetStringBytes("type")) != "tool_result" {
					prompt = true
				}
			}
			if !prompt {
				return ev, false
			}
		}
		ev.Role = "user"
		return ev, true
	case "assistant":
		m := v.Get("message")
		if m == nil {
			return ev, false
		}
		ev.Role = "assistant"
		ev.Model = string(m.GetStringBytes("model"))
		if id := string(m.GetStringBytes("id")); id != "" {
			ev.Key = id
			if req := string(v.GetStringBytes("requestId")); req != "" {
				ev.Key = id + ":" + req
			}
		}
		if u := m.Get("usage"); u != nil && u.Type() == fastjson.TypeObject {
			ev.Tokens = &sessfmt.Tokens{
				Input:      u.GetInt64("input_tokens"),
				Output:     u.GetInt64("output_tokens"),
				CacheRead:  u.GetInt64("cache_read_input_tokens"),
				CacheWrite: u.GetInt64("cache_creation_input_tokens"),
			}
		}
		for _, b := range m.GetArray("content") {
			if string(b.GetStringBytes("type")) == "tool_use" {
				ev.Tools = append(ev.Tools, string(b.GetStringBytes("name")))
			}
		}
		return ev, true
	}
	return ev, false
}
