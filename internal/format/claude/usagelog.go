package claude

import (
	"time"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// usageLog holds the stats events the index pass gathered (OpenUsage), in
// file order, compactly: no allocation per event, strings (response keys,
// models, tool names) interned, as consecutive lines of one response share
// them. each gives the events back as claudeUsageEvent made them.
type usageLog struct {
	recs  []usageRec
	strs  idTable
	tools []int32 // tool name numbers, each event's run at usageRec.tools
}

type usageRec struct {
	t          time.Time
	tok        sessfmt.Tokens
	cost       float64
	key, model int32 // string numbers or -1
	tools      int32 // start in usageLog.tools
	nTools     int32
	role       uint8 // 0 "", 1 user, 2 assistant
	flags      uint8
}

const (
	uSidechain uint8 = 1 << iota
	uTokens
	uCost
	uCostTotal
	uCostState // CostSource "cost-state"
	uTools     // Tools not nil
)

func (u *usageLog) str(s string) int32 {
	if s == "" {
		return -1
	}
	return u.strs.intern([]byte(s))
}

func (u *usageLog) add(ev *sessfmt.UsageEvent) {
	r := usageRec{t: ev.Time, key: u.str(ev.Key), model: u.str(ev.Model), tools: int32(len(u.tools)), nTools: int32(len(ev.Tools))}
	switch ev.Role {
	case "user":
		r.role = 1
	case "assistant":
		r.role = 2
	}
	if ev.Sidechain {
		r.flags |= uSidechain
	}
	if ev.Tokens != nil {
		r.flags |= uTokens
		r.tok = *ev.Tokens
	}
	if ev.Cost != nil {
		r.flags |= uCost
		r.cost = *ev.Cost
	}
	if ev.CostTotal {
		r.flags |= uCostTotal
	}
	if ev.CostSource == "cost-state" {
		r.flags |= uCostState
	}
	if ev.Tools != nil {
		r.flags |= uTools
	}
	for _, t := range ev.Tools {
		u.tools = append(u.tools, u.strs.intern([]byte(t)))
	}
	u.recs = append(u.recs, r)
}

// each calls fn with each event in file order.
func (u *usageLog) each(fn func(sessfmt.UsageEvent) error) error {
	for i := range u.recs {
		r := &u.recs[i]
		ev := sessfmt.UsageEvent{Time: r.t, Role: [...]string{"", "user", "assistant"}[r.role],
			Key: u.strs.str(r.key), Model: u.strs.str(r.model), Sidechain: r.flags&uSidechain != 0,
			CostTotal: r.flags&uCostTotal != 0}
		if r.flags&uTokens != 0 {
			tok := r.tok
			ev.Tokens = &tok
		}
		if r.flags&uCost != 0 {
			c := r.cost
			ev.Cost = &c
		}
		if r.flags&uCostState != 0 {
			ev.CostSource = "cost-state"
		}
		if r.flags&uTools != 0 {
			ev.Tools = make([]string, r.nTools)
			for k := range ev.Tools {
				ev.Tools[k] = u.strs.str(u.tools[r.tools+int32(k)])
			}
		}
		if err := fn(ev); err != nil {
			return err
		}
	}
	return nil
}
