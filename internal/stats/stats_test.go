package stats

import (
	"testing"
	"time"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

func tok(in, out int64) *sessfmt.Tokens { return &sessfmt.Tokens{Input: in, Output: out} }

func TestSplitResponseCountedOnceWithLargestUsage(t *testing.T) {
	a := New(BySession, time.UTC)
	s := Session{Agent: "claude", ID: "s"}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a.Add(s, sessfmt.UsageEvent{Time: t0, Role: "assistant", Model: "m", Key: "k", Tokens: tok(10, 3), Tools: []string{"Bash"}})
	a.Add(s, sessfmt.UsageEvent{Time: t0.Add(time.Second), Role: "assistant", Model: "m", Key: "k", Tokens: tok(10, 172), Tools: []string{"Read"}})
	a.Add(s, sessfmt.UsageEvent{Time: t0.Add(2 * time.Second), Role: "assistant", Model: "m", Key: "k", Tokens: tok(10, 172)})
	rows := a.Rows()
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if r.Tokens.Input != 10 || r.Tokens.Output != 172 || r.Responses != 1 || r.Messages != 1 {
		t.Errorf("got %+v", r)
	}
	if r.ToolCalls["Bash"] != 1 || r.ToolCalls["Read"] != 1 {
		t.Errorf("tool calls %v", r.ToolCalls)
	}
	if r.Wall != 2*time.Second || r.Cost != nil || !r.CostPartial {
		t.Errorf("wall %v cost %v partial %v", r.Wall, r.Cost, r.CostPartial)
	}
}

func TestStoredCostsAndRunningTotals(t *testing.T) {
	a := New(ByDay, time.UTC)
	s := Session{Agent: "pi", ID: "p"}
	d1 := time.Date(2026, 1, 1, 23, 0, 0, 0, time.UTC)
	c := func(x float64) *float64 { return &x }
	a.Add(s, sessfmt.UsageEvent{Time: d1, Role: "assistant", Model: "m", Tokens: tok(1, 1), Cost: c(0.5), CostSource: "usage.cost"})
	a.Add(s, sessfmt.UsageEvent{Time: d1.Add(2 * time.Hour), Role: "assistant", Model: "m", Tokens: tok(1, 1), Cost: c(0.25), CostSource: "usage.cost"})
	rows := a.Rows()
	if len(rows) != 2 || *rows[0].Cost != 0.5 || *rows[1].Cost != 0.25 || rows[0].CostPartial {
		t.Fatalf("rows %+v", rows)
	}
	// a running total without a time goes with the record before it; its
	// growth is what a day gets
	b := New(ByDay, time.UTC)
	cs := Session{Agent: "claude", ID: "c"}
	b.Add(cs, sessfmt.UsageEvent{Time: d1, Role: "user"})
	b.Add(cs, sessfmt.UsageEvent{Cost: c(1), CostSource: "cost-state", CostTotal: true})
	b.Add(cs, sessfmt.UsageEvent{Time: d1.Add(2 * time.Hour), Role: "user"})
	b.Add(cs, sessfmt.UsageEvent{Cost: c(3), CostSource: "cost-state", CostTotal: true})
	rows = b.Rows()
	if len(rows) != 2 || *rows[0].Cost != 1 || *rows[1].Cost != 2 {
		t.Fatalf("running total rows %+v", rows)
	}
	if s := Sum(rows); *s.Cost != 3 || s.Messages != 2 {
		t.Errorf("sum %+v", s)
	}
}

func TestByModelLeavesOutUserAndSynthetic(t *testing.T) {
	a := New(ByModel, time.UTC)
	s := Session{Agent: "claude", ID: "s"}
	a.Add(s, sessfmt.UsageEvent{Role: "user"})
	a.Add(s, sessfmt.UsageEvent{Role: "assistant", Model: "<synthetic>", Tokens: tok(0, 0)})
	a.Add(s, sessfmt.UsageEvent{Role: "assistant", Model: "opus", Tokens: tok(5, 5)})
	rows := a.Rows()
	if len(rows) != 1 || rows[0].Group != "opus" || rows[0].Total != 10 {
		t.Errorf("rows %+v", rows)
	}
	if _, err := ParseGroup("week"); err == nil {
		t.Error("ParseGroup(week): no error")
	}
}
