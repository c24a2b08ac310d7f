package agentcore

import (
	"os"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

var _ sessfmt.Usager = (*Opened)(nil)

// UsageEvents streams the file once and gives each user and assistant entry
// on every branch, with its time (epoch ms) and the names of an assistant
// entry's toolCalls. Agent Core entries store no token usage and no cost,
// so stats shows messages, tool calls and wall time for them, and "not
// stored" for cost.
func (o *Opened) UsageEvents(fn func(sessfmt.UsageEvent) error) error {
	f, err := os.Open(o.S.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := jsonl.NewReader(f)
	for r.Next() {
		rec := r.Record()
		if rec.Kind != jsonl.Object || rec.Value == nil {
			continue
		}
		v := rec.Value
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
			continue
		}
		if err := fn(ev); err != nil {
			return err
		}
	}
	return r.Err()
}
