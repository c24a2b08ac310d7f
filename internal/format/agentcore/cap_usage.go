package agentcore

import (
	"time"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/valyala/fastjson"
)

var _ sessfmt.Usager = (*Opened)(nil)

// UsageEvents streams the file once and gives each user and assistant entry
// on every branch, with its time (epoch ms) and the names of an assistant
// entry's toolCalls. Agent Core entries store no token usage and no cost,
// so stats shows messages, tool calls and wall time for them, and "not
// stored" for cost.
func (o *Opened) UsageEvents(fn func(sessfmt.UsageEvent) error) error {
	return sessfmt.LineUsageEvents(o.S.Path, usageEvent, fn)
}

func usageEvent(v *fastjson.Value) (sessfmt.UsageEvent, bool) {
	ev := sessfmt.UsageEvent{}
	if ms := v.GetInt64("timestamp"); ms > 0 {
		ev.Time = time.UnixMilli(ms).UTC()
	}
	switch string(v.GetStringBytes("type")) {
	case "user":
		ev.Role = "user"
	case "assistant":
		ev.Role = "assistant"
		for _, c := range v.GetArray("toolCalls") {
			if n := string(c.GetStringBytes("name")); n != "" {
				ev.Tools = append(ev.Tools, n)
			}
		}
	default:
		return ev, false
	}
	return ev, true
}
