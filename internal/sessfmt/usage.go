package sessfmt

import (
	"os"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

// Tokens are the token counts of one or more model responses.
type Tokens struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cacheRead"`
	CacheWrite int64 `json:"cacheWrite"`
}

// Add adds o to t.
func (t *Tokens) Add(o Tokens) {
	t.Input += o.Input
	t.Output += o.Output
	t.CacheRead += o.CacheRead
	t.CacheWrite += o.CacheWrite
}

// Total is the sum of the four counts.
func (t Tokens) Total() int64 { return t.Input + t.Output + t.CacheRead + t.CacheWrite }

// UsageEvent is one record of a session that stats counts: a message, a
// model response with its usage, or a cost the agent stored.
type UsageEvent struct {
	// Time is the record's timestamp (zero when it has none).
	Time time.Time
	// Role is "user" or "assistant" for a message; "" for a record that is
	// no message (a stored cost).
	Role string
	// Model is the model that answered ("" for user messages).
	Model string
	// Key identifies a model response that the agent writes on several
	// lines or in several files (Claude Code: message.id + ":" +
	// requestId, or message.id alone): events with the same non-empty Key
	// are one response, counted once. "" means the event is its own.
	Key string
	// Sidechain marks a Claude Code subagent (sidechain) record.
	Sidechain bool
	// Tokens is the usage the record stores (nil: none).
	Tokens *Tokens
	// Cost is the cost in USD the agent stored with the record (nil: none
	// stored). CostSource names where it came from ("usage.cost",
	// "message.cost", "cost-state").
	Cost       *float64
	CostSource string
	// CostTotal marks a cost that is a running total for the session (Claude
	// Code's cost-state totalCostUSD): the last one stands for the session.
	CostTotal bool
	// Tools are the names of the tool calls the record makes.
	Tools []string
}

// Usager is a session that can list what stats counts. Events come in file
// (or store) order, every branch included: tokens were spent on abandoned
// branches too.
type Usager interface {
	UsageEvents(fn func(UsageEvent) error) error
}

// LineUsageEvents streams the JSONL session file at path once and gives fn,
// in file order, the event of each object line that event maps to one
// (ok); other lines, and lines that do not parse, are skipped. The line
// formats' Usagers (pi family, Claude Code, Agent Core) share it.
func LineUsageEvents(path string, event func(*fastjson.Value) (UsageEvent, bool), fn func(UsageEvent) error) error {
	f, err := os.Open(path)
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
		ev, ok := event(rec.Value)
		if !ok {
			continue
		}
		if err := fn(ev); err != nil {
			return err
		}
	}
	return r.Err()
}
