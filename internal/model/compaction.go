package model

import "time"

// Range describes a run of entries on a path.
type Range struct {
	Entries  int    `json:"entries"`
	Messages int    `json:"messages"`
	FirstID  string `json:"firstId,omitempty"`
	LastID   string `json:"lastId,omitempty"`
}

// Compaction is one compaction on the active path and its effect: what the
// model stops seeing (Hidden), what it still sees from before (Kept) and
// what came after it (After).
type Compaction struct {
	ID           string    `json:"id"`
	Line         int       `json:"line"`
	Time         time.Time `json:"timestamp"`
	Trigger      string    `json:"trigger"`
	TokensBefore *int64    `json:"tokensBefore"`
	TokensAfter  *int64    `json:"tokensAfter,omitempty"`
	Summary      string    `json:"summary"`
	ShortSummary string    `json:"shortSummary,omitempty"`
	FirstKeptID  string    `json:"firstKeptEntryId,omitempty"`
	KeptOnPath   bool      `json:"firstKeptOnPath"`
	InEffect     bool      `json:"inEffect"`
	Hidden       Range     `json:"hidden"`
	Kept         Range     `json:"kept"`
	After        Range     `json:"after"`
	Preserved    []string  `json:"preserved"`
	Notes        []string  `json:"notes"`
}

// CompactView is what compact-view prints.
type CompactView struct {
	Format      string       `json:"format"`
	Dialect     string       `json:"dialect,omitempty"`
	Path        string       `json:"path"`
	LeafID      string       `json:"leafId"`
	PathEntries int          `json:"pathEntries"`
	Compactions []Compaction `json:"compactions"`
	Warnings    []string     `json:"warnings"`
}
