package opencode

import (
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/valyala/fastjson"
)

var _ sessfmt.Usager = (*Opened)(nil)

// UsageEvents gives each message of the session in order: user messages,
// and assistant messages with their model (providerID/modelID), their
// tokens (reasoning tokens are added to output, as they are billed) and
// the cost OpenCode stored on the message, and the tools their tool parts
// called. A message whose stored JSON has no cost field has no cost.
// Reverted messages count: their tokens were spent. A whole store (no
// session picked) has no events.
func (o *Opened) UsageEvents(fn func(sessfmt.UsageEvent) error) error {
	if o.T == nil {
		return nil
	}
	for i := range o.T.Messages {
		m := &o.T.Messages[i]
		ev := sessfmt.UsageEvent{Time: m.Created}
		switch m.Role {
		case "user":
			ev.Role = "user"
		case "assistant":
			ev.Role = "assistant"
			ev.Model = m.ModelID
			if m.ProviderID != "" && m.ModelID != "" {
				ev.Model = m.ProviderID + "/" + m.ModelID
			}
			if m.Tokens != nil {
				ev.Tokens = &sessfmt.Tokens{Input: m.Tokens.Input, Output: m.Tokens.Output + m.Tokens.Reasoning,
					CacheRead: m.Tokens.CacheRead, CacheWrite: m.Tokens.CacheWrite}
			}
			if hasCost(m.Raw) {
				c := m.Cost
				ev.Cost, ev.CostSource = &c, "message.cost"
			}
			for _, p := range m.Parts {
				if p.Type == "tool" && p.Tool != "" {
					ev.Tools = append(ev.Tools, p.Tool)
				}
			}
		default:
			continue
		}
		if err := fn(ev); err != nil {
			return err
		}
	}
	return nil
}

func hasCost(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	v, err := fastjson.ParseBytes(raw)
	if err != nil {
		return false
	}
	c := v.Get("cost")
	return c != nil && c.Type() == fastjson.TypeNumber
}
