package pi

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/tree"
)

// CompactView lists every compaction on the path to leaf (tree.None = the
// active leaf) with what it hides and keeps.
func (f *File) CompactView(leaf int) (*model.CompactView, error) {
	if f.HeaderErr != nil {
		return nil, f.HeaderErr
	}
	if leaf == tree.None {
		leaf = f.Index.Last()
	}
	cv := &model.CompactView{Format: "pi", Dialect: string(f.Dialect), Path: f.Path, Compactions: []model.Compaction{}, Warnings: []string{}}
	if leaf == tree.None {
		return cv, nil
	}
	cv.LeafID = f.DisplayID(leaf)
	path, cycle := f.Index.Path(leaf)
	if cycle {
		cv.Warnings = append(cv.Warnings, "the parent chain loops; the path was cut at the repeat")
	}
	cv.PathEntries = len(path)
	pos := make(map[string]int, len(path))
	for k, i := range path {
		if _, dup := pos[f.Index.ID(i)]; !dup {
			pos[f.Index.ID(i)] = k
		}
	}
	var idxs []int
	for k, i := range path {
		if f.Entries[i].Type() == "compaction" {
			idxs = append(idxs, k)
		}
	}
	if len(idxs) == 0 {
		return cv, nil
	}
	nodes := make([]int, len(idxs))
	for j, k := range idxs {
		nodes[j] = path[k]
	}
	lines, err := f.ReadLines(nodes)
	if err != nil {
		return nil, err
	}
	// pi 1.5.2 leaves role "system" messages out of the kept range.
	dropSystem := f.Dialect == DialectPi && f.PiVersion != Pi073
	rng := func(from, to int, kept bool) model.Range {
		r := model.Range{}
		for k := from; k < to; k++ {
			i := path[k]
			r.Entries++
			switch f.Entries[i].Type() {
			case "message":
				if !(kept && dropSystem && f.Entries[i].Role() == "system") {
					r.Messages++
				}
			case "custom_message", "branch_summary":
				r.Messages++
			}
		}
		if to > from {
			r.FirstID = f.DisplayID(path[from])
			r.LastID = f.DisplayID(path[to-1])
		}
		return r
	}
	for j, k := range idxs {
		line := lines[j]
		get := func(key string) []byte { v, _ := jsonl.Field(line, key); return v }
		s := func(raw []byte) string { v, _ := jsonl.String(raw); return v }
		c := model.Compaction{ID: f.DisplayID(path[k]), Line: int(f.Line(path[k])), Summary: s(get("summary")),
			ShortSummary: s(get("shortSummary")), FirstKeptID: s(get("firstKeptEntryId")), InEffect: j == len(idxs)-1,
			Preserved: []string{}, Notes: []string{}}
		if ms, ok := jsTimeMs(get("timestamp")); ok {
			c.Time = time.UnixMilli(ms).UTC()
		}
		c.TokensBefore = num(get("tokensBefore"))
		c.TokensAfter = num(get("tokensAfter"))
		c.Trigger = trigger(get)
		keptStart := k // nothing before the compaction is kept
		if p, ok := pos[c.FirstKeptID]; ok && p < k && c.FirstKeptID != "" {
			keptStart = p
			c.KeptOnPath = true
		} else if c.FirstKeptID != "" && c.FirstKeptID == c.ID {
			c.Notes = append(c.Notes, "firstKeptEntryId is the compaction's own id (pi 1.5.2's default): nothing from before it is kept")
		} else {
			c.Notes = append(c.Notes, "firstKeptEntryId is not on the path before the compaction: nothing from before it is kept")
		}
		if f.Dialect == DialectPi && f.PiVersion != Pi073 {
			if sm, _ := jsonl.Field(line, "systemMessage"); jsonl.Truthy(sm) {
				c.Notes = append(c.Notes, "the context starts with the system prompt stored with the compaction (systemMessage)")
			}
		}
		c.Hidden = rng(0, keptStart, false)
		c.Kept = rng(keptStart, k, true)
		end := len(path)
		if j+1 < len(idxs) {
			end = idxs[j+1]
		}
		c.After = rng(k+1, end, false)
		if pd := get("preserveData"); pd != nil && string(pd) != "null" {
			_ = jsonl.Members(pd, func(key, val []byte) bool {
				c.Preserved = append(c.Preserved, string(key)+" ("+strconv.Itoa(len(val))+" bytes)")
				return true
			})
			if len(c.Preserved) > 0 {
				if rh, _ := jsonl.Field(pd, "openaiRemoteCompaction"); rh != nil && f.Dialect != DialectPi {
					c.Notes = append(c.Notes, "remote compaction: the provider replays its own history instead of the kept entries")
				}
			}
		}
		if w := s(get("warning")); w != "" {
			c.Notes = append(c.Notes, "warning: "+w)
		}
		cv.Compactions = append(cv.Compactions, c)
	}
	return cv, nil
}

func trigger(get func(string) []byte) string {
	if jsonl.Truthy(get("fromHook")) || jsonl.Truthy(get("fromExtension")) {
		return "extension"
	}
	if m, ok := jsonl.String(get("method")); ok && m != "" {
		return m
	}
	if t, ok := jsonl.String(get("trigger")); ok && t != "" {
		return t
	}
	return "agent"
}

func num(raw []byte) *int64 {
	if raw == nil {
		return nil
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		return nil
	}
	n := int64(f)
	return &n
}
