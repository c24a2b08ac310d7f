// Package stats adds up what sessions say about their use of models:
// tokens, the cost the agent stored, messages, tool calls and wall time,
// grouped by session, project, day, model or agent.
//
// A model response that an agent writes more than once (Claude Code writes
// one line per content block, each with the response's usage; a resumed or
// forked session copies earlier responses) is counted once across every
// session added: events with the same Key are one response, and its usage
// is the largest the copies carry (the final usage, not the streaming
// placeholder), as ccusage counts them.
package stats

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

// Group names what rows are grouped by.
type Group string

// The groupings of --by.
const (
	BySession Group = "session"
	ByProject Group = "project"
	ByDay     Group = "day"
	ByModel   Group = "model"
	ByAgent   Group = "agent"
)

// ParseGroup reads --by.
func ParseGroup(s string) (Group, error) {
	switch g := Group(s); g {
	case BySession, ByProject, ByDay, ByModel, ByAgent:
		return g, nil
	}
	return "", fmt.Errorf("invalid --by %q (session, project, day, model, agent)", s)
}

// Session is what the aggregator needs to know about a session.
type Session struct {
	Agent string
	// ID is the session's id; a Claude Code subagent transcript gives its
	// parent's id, so that its usage counts for the session that ran it.
	ID      string
	Project string
	Ref     string
}

// Row is one group's totals.
type Row struct {
	By    Group  `json:"by"`
	Group string `json:"group"`
	// Agent and Ref are set for --by session.
	Agent    string         `json:"agent,omitempty"`
	Project  string         `json:"project,omitempty"`
	Ref      string         `json:"session,omitempty"`
	Sessions int            `json:"sessions"`
	Tokens   sessfmt.Tokens `json:"tokens"`
	// TokensNotStored says the group's responses carry no token usage at
	// all (Agent Core stores none): its zeros are not measurements.
	TokensNotStored bool  `json:"tokensNotStored,omitempty"`
	Total           int64 `json:"totalTokens"`
	// Cost is the sum of the costs the agents stored, in USD; nil when
	// none was stored. CostPartial says some responses had tokens but no
	// stored cost, so Cost is less than what they cost.
	Cost        *float64       `json:"cost"`
	CostPartial bool           `json:"costPartial,omitempty"`
	CostSources []string       `json:"costSources,omitempty"`
	Messages    int            `json:"messages"`
	Responses   int            `json:"responses"`
	ToolCalls   map[string]int `json:"toolCalls"`
	// Wall is the time from the first to the last record of each session
	// in the group, added up over the group's sessions.
	Wall        time.Duration `json:"-"`
	WallSeconds float64       `json:"wallSeconds"`
	First       *time.Time    `json:"first,omitempty"`
	Last        *time.Time    `json:"last,omitempty"`
}

type group struct {
	row      Row
	sessions map[string]*span
	costs    map[string]bool
	costSum  float64
	hasCost  bool
	// tokens: some response of the group stored its usage.
	tokens bool
	// running: sessions with a running-total cost (cost-state) here, which
	// covers their responses; uncosted: sessions with responses that have
	// tokens and no cost of their own.
	running, uncosted map[string]bool
}

type span struct{ first, last time.Time }

type response struct {
	g      *group
	tokens sessfmt.Tokens
}

// Aggregator adds up events. It is not safe for concurrent use.
type Aggregator struct {
	by     Group
	loc    *time.Location
	groups map[string]*group
	seen   map[string]*response
	// lastModel is the model a session's last response used (--by model
	// puts user messages with it).
	lastModel map[string]string
	// lastTime is the time of a session's last record with one: a record
	// without a time (cost-state) is put there.
	lastTime map[string]time.Time
	// running is a session's last running-total cost: each new one adds
	// what it grew by, so groups (days) add up to the session's total.
	running map[string]float64
}

// New returns an aggregator grouping by by; days are cut in loc.
func New(by Group, loc *time.Location) *Aggregator {
	if loc == nil {
		loc = time.Local
	}
	return &Aggregator{by: by, loc: loc, groups: map[string]*group{}, seen: map[string]*response{}, lastModel: map[string]string{}, lastTime: map[string]time.Time{}, running: map[string]float64{}}
}

const unknown = "(unknown)"

func (a *Aggregator) key(s Session, ev sessfmt.UsageEvent) string {
	switch a.by {
	case BySession:
		return s.Agent + "\x00" + s.ID
	case ByProject:
		if s.Project == "" {
			return unknown
		}
		return s.Project
	case ByDay:
		if ev.Time.IsZero() {
			return unknown
		}
		return ev.Time.In(a.loc).Format("2006-01-02")
	case ByModel:
		m := ev.Model
		if ev.Role != "assistant" {
			m = a.lastModel[s.Agent+"\x00"+s.ID]
		}
		if m == "" {
			return unknown
		}
		return m
	default:
		return s.Agent
	}
}

func (a *Aggregator) group(s Session, ev sessfmt.UsageEvent) *group {
	k := a.key(s, ev)
	g := a.groups[k]
	if g == nil {
		g = &group{row: Row{By: a.by, Group: k, ToolCalls: map[string]int{}}, sessions: map[string]*span{},
			costs: map[string]bool{}, running: map[string]bool{}, uncosted: map[string]bool{}}
		if a.by == BySession {
			g.row.Group, g.row.Agent, g.row.Project, g.row.Ref = s.ID, s.Agent, s.Project, s.Ref
		}
		a.groups[k] = g
	}
	return g
}

// synthetic is the model of the messages Claude Code makes up itself (API
// errors, interruptions): no request was made.
const synthetic = "<synthetic>"

// Add counts one event of session s.
func (a *Aggregator) Add(s Session, ev sessfmt.UsageEvent) {
	sk := s.Agent + "\x00" + s.ID
	if ev.Role == "assistant" && ev.Model != "" && ev.Model != synthetic {
		a.lastModel[sk] = ev.Model
	}
	if ev.Time.IsZero() {
		ev.Time = a.lastTime[sk]
	} else {
		a.lastTime[sk] = ev.Time
	}
	if a.by == ByModel && (ev.Role == "user" || ev.Model == synthetic) {
		return // messages of no model: counted in the other groupings only
	}
	g := a.group(s, ev)
	r := &g.row
	if !ev.Time.IsZero() {
		sp := g.sessions[sk]
		if sp == nil {
			sp = &span{first: ev.Time, last: ev.Time}
			g.sessions[sk] = sp
		}
		if ev.Time.Before(sp.first) {
			sp.first = ev.Time
		}
		if ev.Time.After(sp.last) {
			sp.last = ev.Time
		}
	} else if g.sessions[sk] == nil {
		g.sessions[sk] = &span{}
	}
	for _, t := range ev.Tools {
		r.ToolCalls[t]++
	}
	if ev.Cost != nil {
		g.costs[ev.CostSource] = true
		g.hasCost = true
		if ev.CostTotal {
			d := *ev.Cost - a.running[sk]
			if d < 0 { // a new running total started (a new process)
				d = *ev.Cost
			}
			a.running[sk] = *ev.Cost
			g.costSum += d
			g.running[sk] = true
		}
	}
	switch ev.Role {
	case "user":
		r.Messages++
		return
	case "assistant":
	default:
		return
	}
	if ev.Key != "" {
		if prev := a.seen[ev.Key]; prev != nil {
			// The same response again: a later line of a split turn, or
			// a copy in a resumed session. Keep the larger usage.
			if ev.Tokens != nil && ev.Tokens.Total() > prev.tokens.Total() {
				pr := &prev.g.row
				sub(&pr.Tokens, prev.tokens)
				pr.Tokens.Add(*ev.Tokens)
				prev.tokens = *ev.Tokens
			}
			return
		}
	}
	r.Messages++
	if ev.Model == synthetic {
		return
	}
	r.Responses++
	var tk sessfmt.Tokens
	if ev.Tokens != nil {
		g.tokens = true
		tk = *ev.Tokens
		r.Tokens.Add(tk)
	}
	if ev.Cost != nil && !ev.CostTotal {
		g.costSum += *ev.Cost
	} else if tk.Total() > 0 {
		g.uncosted[sk] = true
	}
	if ev.Key != "" {
		a.seen[ev.Key] = &response{g: g, tokens: tk}
	}
}

func sub(t *sessfmt.Tokens, o sessfmt.Tokens) {
	t.Input -= o.Input
	t.Output -= o.Output
	t.CacheRead -= o.CacheRead
	t.CacheWrite -= o.CacheWrite
}

// Rows returns the totals, one row per group, sorted by group (days and
// names ascending; sessions by their first record).
func (a *Aggregator) Rows() []Row {
	out := make([]Row, 0, len(a.groups))
	for _, g := range a.groups {
		r := g.row
		r.Sessions = len(g.sessions)
		r.Total = r.Tokens.Total()
		for _, sp := range g.sessions {
			if sp.first.IsZero() {
				continue
			}
			r.Wall += sp.last.Sub(sp.first)
			if r.First == nil || sp.first.Before(*r.First) {
				t := sp.first
				r.First = &t
			}
			if r.Last == nil || sp.last.After(*r.Last) {
				t := sp.last
				r.Last = &t
			}
		}
		r.WallSeconds = r.Wall.Seconds()
		r.TokensNotStored = r.Responses > 0 && !g.tokens
		for sk := range g.uncosted {
			// a running total stands for its whole session: responses
			// without their own cost are covered by it
			if !g.running[sk] {
				r.CostPartial = true
			}
		}
		if g.hasCost {
			c := roundCost(g.costSum)
			r.Cost = &c
			for s := range g.costs {
				r.CostSources = append(r.CostSources, s)
			}
			sort.Strings(r.CostSources)
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if a.by == BySession {
			fi, fj := out[i].First, out[j].First
			if fi != nil && fj != nil && !fi.Equal(*fj) {
				return fi.Before(*fj)
			}
			if (fi == nil) != (fj == nil) {
				return fj == nil
			}
		}
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return out[i].Agent < out[j].Agent
	})
	return out
}

// Sum adds rows up into one row (the total line).
func Sum(rows []Row) Row {
	t := Row{Group: "total", ToolCalls: map[string]int{}}
	var cost float64
	hasCost := false
	srcs := map[string]bool{}
	for _, r := range rows {
		t.Sessions += r.Sessions
		t.Tokens.Add(r.Tokens)
		t.Messages += r.Messages
		t.Responses += r.Responses
		t.Wall += r.Wall
		for k, v := range r.ToolCalls {
			t.ToolCalls[k] += v
		}
		if r.Cost != nil {
			cost += *r.Cost
			hasCost = true
		}
		if r.CostPartial || (r.Cost == nil && r.Tokens.Total() > 0) {
			t.CostPartial = true
		}
		for _, s := range r.CostSources {
			srcs[s] = true
		}
	}
	t.Total = t.Tokens.Total()
	t.WallSeconds = t.Wall.Seconds()
	t.TokensNotStored = t.Responses > 0
	for _, r := range rows {
		if r.Responses > 0 && !r.TokensNotStored {
			t.TokensNotStored = false
		}
	}
	if hasCost {
		cost = roundCost(cost)
		t.Cost = &cost
	}
	for s := range srcs {
		t.CostSources = append(t.CostSources, s)
	}
	sort.Strings(t.CostSources)
	return t
}

// roundCost drops the noise of adding binary fractions (0.0035 + 0.009 is
// 0.012499999999999999): costs are kept to 1e-10 USD.
func roundCost(c float64) float64 { return math.Round(c*1e10) / 1e10 }
