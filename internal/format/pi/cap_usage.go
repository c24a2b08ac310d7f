package pi

import (
	"time"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/valyala/fastjson"
)

var _ sessfmt.Usager = (*Session)(nil)

// UsageEvents streams the session file once and gives, in file order and on
// every branch, each message entry: user messages, and assistant messages
// with their model, message.usage (input, output, cacheRead, cacheWrite)
// and the cost pi/omp stored in usage.cost.total, and the names of their
// toolCall blocks. Lines that do not parse are skipped. A line longer than
// the reader's buffer is not held (usageEvents).
func (s *Session) UsageEvents(fn func(sessfmt.UsageEvent) error) error {
	return usageEvents(s.metaPath, piUsageEvent, fn)
}

func piUsageEvent(v *fastjson.Value) (sessfmt.UsageEvent, bool) {
	var ev sessfmt.UsageEvent
	if string(v.GetStringBytes("type")) != "message" {
		return ev, false
	}
	m := v.Get("message")
	if m == nil {
		return ev, false
	}
	if t, err := time.Parse(time.RFC3339Nano, string(v.GetStringBytes("timestamp"))); err == nil {
		ev.Time = t
	} else if ms := m.GetInt64("timestamp"); ms > 0 {
		ev.Time = time.UnixMilli(ms).UTC()
	}
	switch string(m.GetStringBytes("role")) {
	case "user":
		ev.Role = "user"
		return ev, true
	case "assistant":
	default:
		return ev, false
	}
	ev.Role = "assistant"
	ev.Model = string(m.GetStringBytes("model"))
	if u := m.Get("usage"); u != nil && u.Type() == fastjson.TypeObject {
		ev.Tokens = &sessfmt.Tokens{
			Input:      u.GetInt64("input"),
			Output:     u.GetInt64("output"),
			CacheRead:  u.GetInt64("cacheRead"),
			CacheWrite: u.GetInt64("cacheWrite"),
		}
		if c := u.Get("cost", "total"); c != nil && c.Type() == fastjson.TypeNumber {
			x := c.GetFloat64()
			ev.Cost, ev.CostSource = &x, "usage.cost"
		}
	}
	for _, b := range m.GetArray("content") {
		if string(b.GetStringBytes("type")) == "toolCall" {
			ev.Tools = append(ev.Tools, string(b.GetStringBytes("name")))
		}
	}
	return ev, true
}
