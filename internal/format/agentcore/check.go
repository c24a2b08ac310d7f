package agentcore

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
)

// Problem codes specific to Agent Core.
const (
	CodeOrphanToolResult = "orphan-tool-result"   // tool_result whose toolCallId no call has
	CodeUnansweredCall   = "unanswered-tool-call" // a tool call no tool_result answers
	CodeUnknownType      = "unknown-entry-type"   // a type Agent Core does not define
)

// Check returns the line problems seen by Read plus tree problems
// (duplicate ids, orphans, self-parents, cycles) and tool pairing problems.
func (s *Session) Check() ([]problem.Problem, error) {
	out := append([]problem.Problem(nil), s.Problems...)
	x := s.Index
	for _, d := range x.Duplicates() {
		i, _ := x.Lookup(d)
		out = append(out, problem.Problem{Code: problem.DuplicateID, Severity: problem.Warning, Line: s.Entries[i].Line, ID: d,
			Message: "id " + d + " is used by more than one entry; the last one wins", Fix: "children of the earlier entry attach to the later one"})
	}
	for _, i := range x.Orphans() {
		e := s.Entries[i]
		out = append(out, problem.Problem{Code: problem.Orphan, Severity: problem.Warning, Line: e.Line, ID: e.ID,
			Message: "parentId " + e.ParentID + " names no entry; the branch starts here"})
	}
	for _, i := range x.SelfParents() {
		e := s.Entries[i]
		out = append(out, problem.Problem{Code: problem.SelfParent, Severity: problem.Error, Line: e.Line, ID: e.ID, Message: "entry is its own parent"})
	}
	for _, c := range x.Cycles() {
		e := s.Entries[c[0]]
		out = append(out, problem.Problem{Code: problem.Cycle, Severity: problem.Error, Line: e.Line, ID: e.ID, Message: fmt.Sprintf("parent cycle through %d entries", len(c))})
	}
	if r := x.Roots(); len(r) > 1 {
		out = append(out, problem.Problem{Code: problem.SeveralRoots, Severity: problem.Info, Line: s.Entries[r[1]].Line, ID: s.Entries[r[1]].ID,
			Message: fmt.Sprintf("%d entries have no parent", len(r))})
	}
	// Tool pairing, decoding only tool-related entries.
	f, err := os.Open(s.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	type call struct {
		line      int
		id, entry string
	}
	var calls []call
	results := map[string]bool{}
	var resultLines []call
	for i, e := range s.Entries {
		if !IsType(e.Type) {
			out = append(out, problem.Problem{Code: CodeUnknownType, Severity: problem.Info, Line: e.Line, ID: e.ID, Message: fmt.Sprintf("entry type %q is not an Agent Core type; it is skipped in context", e.Type)})
			continue
		}
		if e.Type != TypeAssistant && e.Type != TypeToolResult && e.Type != TypeTool {
			continue
		}
		raw, err := s.rawAt(f, i)
		if err != nil {
			return nil, err
		}
		var b entryBody
		if json.Unmarshal(raw, &b) != nil {
			continue
		}
		// Tool call ids are keys (keyOf: lone surrogates kept, as the
		// agent's strings keep them), not encoding/json's decoding.
		switch e.Type {
		case TypeAssistant:
			tcs, _ := jsonl.Field(raw, "toolCalls")
			jsonl.Elements(tcs, func(el []byte) bool {
				if len(el) > 0 && el[0] == '{' {
					if id, _ := keyOf(el, "id"); id != "" {
						calls = append(calls, call{e.Line, id, e.ID})
					}
				}
				return true
			})
		case TypeTool:
			if id, _ := keyOf(raw, "toolCallId"); id != "" {
				calls = append(calls, call{e.Line, id, e.ID})
			}
		case TypeToolResult:
			id, _ := keyOf(raw, "toolCallId")
			results[id] = true
			resultLines = append(resultLines, call{e.Line, id, e.ID})
		}
	}
	known := map[string]bool{}
	for _, c := range calls {
		known[c.id] = true
	}
	reported := map[string]bool{}
	for _, c := range calls {
		if !results[c.id] && !reported[c.id] {
			reported[c.id] = true
			out = append(out, problem.Problem{Code: CodeUnansweredCall, Severity: problem.Warning, Line: c.line, ID: c.entry,
				Message: "tool call " + c.id + " has no tool_result", Fix: "the run was interrupted before the tool finished"})
		}
	}
	for _, r := range resultLines {
		if !known[r.id] {
			out = append(out, problem.Problem{Code: CodeOrphanToolResult, Severity: problem.Warning, Line: r.line, ID: r.entry,
				Message: "tool_result for " + r.id + " answers no tool call"})
		}
	}
	return out, nil
}
