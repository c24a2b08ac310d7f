package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/valyala/fastjson"
)

// severities of the problem codes (for check and diagnostics).
var severity = map[string]problem.Severity{
	ProbTornTail:        problem.Error,
	ProbNULRun:          problem.Error,
	ProbMalformed:       problem.Error,
	ProbNonObject:       problem.Warning,
	ProbBOM:             problem.Warning,
	ProbCRLF:            problem.Warning,
	ProbMissingUUID:     problem.Warning,
	ProbDuplicateUUID:   problem.Warning,
	ProbSelfParent:      problem.Error,
	ProbCycle:           problem.Error,
	ProbDanglingParent:  problem.Error,
	ProbLegacyProgress:  problem.Info,
	ProbProgressForward: problem.Warning,
	ProbLeafDisagree:    problem.Warning,
	ProbOver5MB:         problem.Info,
	ProbOver50MB:        problem.Warning,
	ProbSummaryElse:     problem.Info,
	ProbSessionMismatch: problem.Info,
	ProbEmpty:           problem.Warning,
	ProbUnpairedToolUse: problem.Warning,
	ProbOrphanResult:    problem.Warning,
	ProbCompactTemp:     problem.Warning,
	ProbMostOffPath:     problem.Warning,
}

// Severity returns the severity of a problem code.
func Severity(code string) problem.Severity {
	if s, ok := severity[code]; ok {
		return s
	}
	return problem.Warning
}

// ProblemList returns Problems in the shared problem shape.
func (f *File) ProblemList() []problem.Problem {
	return ToProblems(f.Problems())
}

// ToProblems converts problems or walk warnings to the shared shape.
func ToProblems(ps []Problem) []problem.Problem {
	out := make([]problem.Problem, 0, len(ps))
	for _, p := range ps {
		out = append(out, problem.Problem{Code: p.Code, Severity: Severity(p.Code), Line: p.Line, ID: p.UUID, Message: p.Msg, Fix: fixes[p.Code]})
	}
	return out
}

// Title is the session's title by the /resume picker's rules (pickTitle),
// from the full index.
func (f *File) Title() string {
	t, _ := pickTitle(f.Meta.CustomTitle, f.Meta.AITitle, f.Meta.LastPrompt, f.Meta.lastSummary, f.FirstPrompt())
	return t
}

// FirstPrompt is the first user prompt of the main conversation as the
// picker shows it (pickerPrompt), or the first slash command when no
// prompt follows it (decoding at most 200 user lines).
func (f *File) FirstPrompt() string {
	var p fastjson.Parser
	tried := 0
	cmd := ""
	for li := range f.lines {
		lr := &f.lines[li]
		if f.names[lr.typ] != TypeUser || lr.flags&(fMeta|fCompactSummary|fToolResult|fSidechain) != 0 {
			continue
		}
		if li == 0 && f.bom {
			continue // as the SDK, which does not read a line behind a byte order mark
		}
		if tried++; tried > 200 {
			break
		}
		v, _, long, err := f.parseLong(&p, int32(li))
		if err != nil {
			continue
		}
		lg := f
		if !long {
			lg = nil
		}
		s, c := pickerPromptOf(v, lg)
		if s != "" {
			return s
		}
		if cmd == "" {
			cmd = c
		}
	}
	return cmd
}

func msTime(ms int64) time.Time {
	if ms == noTS || ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

func parseRFC(s string) time.Time {
	t, err := parseTime(s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// TranscriptBuilder turns turns into the shared transcript model, pairing
// tool results with the names of their tool calls.
type TranscriptBuilder struct {
	tools map[string]string
	T     model.Transcript
	// ImageRefs: image blocks whose bytes are base64 in the file carry
	// where (model.Block.LongText), and a tool result's images follow it as
	// image blocks, for a sink that embeds images (export's HTML page).
	ImageRefs bool
	// TextRefs: a text of a line too long to hold stays in the file
	// (model.Block.LongText), for a sink that is a model.TextRefTaker;
	// otherwise Hold reads it whole into the block's Text.
	TextRefs bool
	Hold     func(*model.TextRef) (string, error)
	// Err is the first error of Hold.
	Err error
}

// text returns a block's text for the view: held, or its reference.
func (b *TranscriptBuilder) text(bl *Block) (string, *model.TextRef) {
	if bl.Long == nil {
		return bl.Text, nil
	}
	if b.TextRefs {
		return "", bl.Long
	}
	return b.held(bl.Long), nil
}

// held reads a long text whole (Hold).
func (b *TranscriptBuilder) held(ref *model.TextRef) string {
	if b.Hold == nil {
		if b.Err == nil {
			b.Err = errors.New("a long text cannot be read")
		}
		return ""
	}
	s, err := b.Hold(ref)
	if err != nil && b.Err == nil {
		b.Err = err
	}
	return s
}

// NewTranscript starts a transcript for the file and leaf.
func (f *File) NewTranscript(leaf string, mode LeafMode, across bool) *TranscriptBuilder {
	b := &TranscriptBuilder{tools: map[string]string{}}
	title := f.Title()
	if title == "" {
		title = "(untitled)"
	}
	sid := strings.TrimSuffix(filepath.Base(f.Path), ".jsonl")
	b.T.Title = title
	b.T.Header = append(b.T.Header, fmt.Sprintf("claude-code session %s · %s", sid, title))
	h := fmt.Sprintf("leaf %s (%s)", leaf, mode)
	if across {
		h += " · whole history across compactions"
	}
	b.T.Header = append(b.T.Header, h)
	b.T.Header = append(b.T.Header, f.headerFacts(leaf, across)...)
	return b
}

// GitBranch is the last gitBranch recorded on a message line.
func (f *File) GitBranch() string { return f.gitBranch }

// Model is the model of the last assistant line (synthetic ones left out).
func (f *File) Model() string { return f.model }

// headerFacts are the show header's lines after the leaf: project folder
// and git branch, model, how many messages the path holds and how many of
// them Claude Code sends, a subagent's parent session and the Task that
// started it, and a note when most conversation records are off the path.
func (f *File) headerFacts(leaf string, across bool) []string {
	var out []string
	var parts []string
	if c := f.Cwd(); c != "" {
		parts = append(parts, "project "+c)
	}
	if f.gitBranch != "" {
		parts = append(parts, "branch "+f.gitBranch)
	}
	if len(parts) > 0 {
		out = append(out, strings.Join(parts, " · "))
	}
	if f.model != "" {
		out = append(out, "model "+f.model)
	}
	if p, err := f.Walk(leaf, across); err == nil {
		msgs, sent := 0, 0
		p.NoText = true
		_ = f.EachTurn(p, func(t *Turn) error {
			if t.Type == TypeUser || t.Type == TypeAssistant {
				msgs++
				if t.Sent {
					sent++
				}
			}
			return nil
		})
		out = append(out, fmt.Sprintf("%d %s on the path, %d sent to the model", msgs, plural(msgs, "message", "messages"), sent))
		if n, conv := f.offPath(p, false); conv > 0 && n*2 > conv {
			out = append(out, fmt.Sprintf("note: %d of the file's %d user/assistant records are not on this path (other branches, or records that lost their parent; tree shows them)", n, conv))
		}
	}
	if f.ParentSession != "" {
		out = append(out, f.subagentOrigin()...)
	}
	return out
}

// offPath counts the user/assistant records of the file that are not on
// path p, and all of them. With sinceCompaction, records written before
// the latest compact boundary on the path are left out of both counts
// unless they are on it: a compaction hides them by design; so are the
// records of a subagent transcript that hang on a record of its parent
// session (a compaction subagent's copy of the conversation).
func (f *File) offPath(p *Path, sinceCompaction bool) (off, conv int) {
	on := make(map[int32]bool, len(p.nodes))
	cut := int32(-1) // file position of the latest compact boundary on the path
	for _, nd := range p.nodes {
		on[nd] = true
		if sinceCompaction && f.isBoundary(nd) && f.nFirst[nd] > cut {
			cut = f.nFirst[nd]
		}
	}
	for nd := int32(0); int(nd) < len(f.nFirst); nd++ {
		if !f.member[nd] || !f.isConv(nd) || f.sidechain(nd) && !f.sideOnly || f.removed(nd) {
			continue // inline sidechains and records the loader drops are not the conversation's
		}
		if !on[nd] && sinceCompaction && (f.nFirst[nd] < cut || f.externalParentOf(nd)) {
			continue // history before a compaction, or parent-session records a compaction subagent hangs on: off the path by design
		}
		conv++
		if !on[nd] {
			off++
		}
	}
	return off, conv
}

// subagentOrigin names a subagent transcript's parent session and the
// record that started it (the Task/Agent call, or the record a compaction
// subagent hangs on).
func (f *File) subagentOrigin() []string {
	out := []string{"subagent of session " + strings.TrimSuffix(filepath.Base(f.ParentSession), ".jsonl") + " (" + f.ParentSession + ")"}
	files, err := FindSubagents(f.ParentSession)
	if err != nil {
		return out
	}
	pf, err := Open(f.ParentSession)
	if err != nil {
		return out
	}
	defer pf.Close()
	for _, s := range pf.LinkSubagents(files).Files {
		if filepath.Clean(s.Path) != filepath.Clean(f.Path) || s.ParentUUID == "" {
			continue
		}
		what := "started by the tool call " + s.ToolUseID
		if s.Link == LinkParentUUID {
			what = "hangs on the session's record"
		} else {
			what += " in record"
		}
		line := fmt.Sprintf("%s %s (line %d)", what, s.ParentUUID, s.ParentLine)
		if s.Description != "" {
			line += ": " + s.Description
		}
		out = append(out, line)
	}
	return out
}

// Add appends one turn.
func (b *TranscriptBuilder) Add(t *Turn) {
	m := model.Message{ID: t.UUID, Role: t.Role, Time: parseRFC(t.Timestamp), Model: t.Model}
	if m.Model == "<synthetic>" {
		m.Notes = append(m.Notes, "synthetic message")
		m.Model = ""
	}
	switch {
	case t.Type == TypeSystem && t.Subtype == SubtypeCompactBoundary:
		m.Marker = "compact boundary"
	case t.Type == TypeSystem:
		m.Marker = "system: " + t.Subtype
	case t.Type == TypeAttachment:
		m.Role = "attachment"
		m.Marker = "attachment: " + t.Subtype
	case t.IsCompactSummary:
		m.Marker = "compaction summary"
	case t.IsMeta:
		m.Marker = "meta"
	case t.IsAPIError:
		m.Marker = "api error"
	}
	if t.Type == TypeUser && onlyToolResults(t) {
		m.Role = "toolResult"
	}
	if len(t.UUIDs) > 1 {
		m.Notes = append(m.Notes, fmt.Sprintf("%d lines of message %s merged", len(t.UUIDs), t.MessageID))
	}
	if t.Rescued {
		m.Notes = append(m.Notes, "off-chain line re-attached by the loader")
	}
	if t.PreCompaction {
		m.Notes = append(m.Notes, "before a compaction: not in the model's context")
	}
	if t.IsSidechain {
		m.Notes = append(m.Notes, "sidechain")
	}
	m.Notes = append(m.Notes, sendNotes(t)...)
	if t.LogicalParentUUID != "" {
		m.Notes = append(m.Notes, "logical parent "+t.LogicalParentUUID)
	}
	for _, bl := range t.Blocks {
		switch bl.Type {
		case "text":
			if t.Type == TypeSystem && t.Subtype == SubtypeCompactBoundary {
				if bl.Long != nil {
					bl.Text = b.held(bl.Long)
				}
				m.Blocks = append(m.Blocks, model.Block{Kind: "text", Text: bl.Text + compactNote(t)})
				continue
			}
			tx, ref := b.text(&bl)
			m.Blocks = append(m.Blocks, model.Block{Kind: "text", Text: tx, LongText: ref})
		case "thinking":
			tx, ref := b.text(&bl)
			m.Blocks = append(m.Blocks, model.Block{Kind: "thinking", Text: tx, LongText: ref})
		case "redacted_thinking":
			m.Blocks = append(m.Blocks, model.Block{Kind: "thinking", Text: "(redacted)"})
		case "tool_use", "server_tool_use":
			b.tools[bl.ID] = bl.Name
			m.Blocks = append(m.Blocks, model.Block{Kind: "toolCall", Name: bl.Name, ID: bl.ID, Args: bl.Input})
		case "tool_result":
			tx, ref := b.text(&bl)
			m.Blocks = append(m.Blocks, model.Block{Kind: "toolResult", Name: b.tools[bl.ToolUseID], ID: bl.ToolUseID, Text: tx, LongText: ref, IsError: bl.IsError})
			if b.ImageRefs {
				for _, im := range bl.Images {
					m.Blocks = append(m.Blocks, model.Block{Kind: "image", MIME: im.MIME, Size: im.Size, LongText: im.Data})
				}
			}
		case "image":
			im := model.Block{Kind: "image", MIME: bl.MIME, Size: bl.Size}
			if b.ImageRefs {
				im.LongText = bl.Data
			}
			m.Blocks = append(m.Blocks, im)
		case "attachment":
			m.Blocks = append(m.Blocks, model.Block{Kind: "other", Name: "attachment " + bl.Name})
		default:
			m.Blocks = append(m.Blocks, model.Block{Kind: "other", Name: bl.Type, Text: bl.Text})
		}
	}
	b.T.Messages = append(b.T.Messages, m)
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func compactNote(t *Turn) string {
	var md struct {
		Trigger   string `json:"trigger"`
		PreTokens int64  `json:"preTokens"`
	}
	if len(t.CompactMetadata) > 0 {
		_ = jsonUnmarshal(t.CompactMetadata, &md)
	}
	var parts []string
	if md.Trigger != "" {
		parts = append(parts, md.Trigger)
	}
	if md.PreTokens > 0 {
		parts = append(parts, fmt.Sprintf("%d tokens before", md.PreTokens))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func (f *File) CompactView(leaf string) (*model.CompactView, error) {
	cs, warns, err := f.Compactions(leaf)
	if err != nil {
		return nil, err
	}
	p, err := f.Walk(leaf, true)
	if err != nil {
		return nil, err
	}
	cv := &model.CompactView{Format: "claude-code", Path: f.Path, LeafID: p.Leaf, PathEntries: p.Len(),
		Compactions: []model.Compaction{}, Warnings: []string{}}
	rng := func(r Range) model.Range {
		return model.Range{Entries: r.Count, Messages: r.Messages, FirstID: r.FirstUUID, LastID: r.LastUUID}
	}
	for i, c := range cs {
		mc := model.Compaction{ID: c.UUID, Line: c.Line, Time: parseRFC(c.Timestamp), Trigger: c.Trigger,
			Summary: c.Summary, InEffect: i == len(cs)-1, Hidden: rng(c.Hidden), After: rng(c.Kept),
			Preserved: []string{}, Notes: []string{}}
		if mc.Trigger == "" {
			mc.Trigger = "(unknown trigger)"
		}
		if c.PreTokens > 0 {
			t := c.PreTokens
			mc.TokensBefore = &t
		}
		if c.LogicalParentMissing {
			mc.Notes = append(mc.Notes, "logicalParentUuid "+c.LogicalParentUUID+" is not in this file: the history before it is gone")
		}
		if c.SummaryUUID == "" {
			mc.Notes = append(mc.Notes, "no compaction summary message follows the boundary")
		}
		if ps := c.Preserved; ps != nil {
			mc.FirstKeptID = ps.HeadUUID
			mc.KeptOnPath = ps.Relinked
			mc.Preserved = append(mc.Preserved, fmt.Sprintf("segment head %s … tail %s, anchored under %s (%d records)",
				ps.HeadUUID, ps.TailUUID, ps.AnchorUUID, ps.Range.Count))
			if ps.Relinked {
				mc.Kept = rng(ps.Range)
			} else {
				note := "preserved segment is not relinked by Claude Code"
				if ps.Problem != "" {
					note += ": " + ps.Problem
				}
				mc.Notes = append(mc.Notes, note)
			}
		}
		cv.Compactions = append(cv.Compactions, mc)
	}
	for _, w := range warns {
		if w.Code == WarnRescued || w.Code == WarnLeafDescendants {
			continue
		}
		cv.Warnings = append(cv.Warnings, fmt.Sprintf("line %d: %s [%s]", w.Line, w.Msg, w.Code))
	}
	return cv, nil
}

// fixes are one-line hints of the fix for each problem code.
var fixes = map[string]string{
	ProbCompactTemp:     "delete the .compact.tmp file once no Claude Code process has the session open",
	ProbTornTail:        "cut the torn last line (a crash mid-write); everything before it is intact",
	ProbNULRun:          "remove the NUL-filled line; Claude Code before 2.1.121 stopped reading at it",
	ProbMalformed:       "remove or repair the line; Claude Code skips it silently",
	ProbNonObject:       "remove the line; it is not a transcript entry",
	ProbBOM:             "strip the byte order mark",
	ProbCRLF:            "convert line endings to LF",
	ProbMissingUUID:     "give the record a uuid or remove it; the loader ignores it",
	ProbDuplicateUUID:   "keep one of the lines; the loader keeps the first position and the last value",
	ProbSelfParent:      "point parentUuid at the previous record",
	ProbCycle:           "break the cycle by re-pointing one parentUuid at an earlier record",
	ProbDanglingParent:  "re-point parentUuid at the previous record of the conversation",
	ProbLegacyProgress:  "bridge the progress lines out of the chain (they are no longer written since 2.1.85)",
	ProbProgressForward: "re-point parentUuid at the progress line's non-progress ancestor",
	ProbLeafDisagree:    "compare `sessctl show --leaf-mode` outputs; re-chain the branch you want as the last one",
	ProbOver5MB:         "compact or prune the session; Claude Code skips pre-compaction history over 5 MB",
	ProbOver50MB:        "prune progress lines, old snapshots and large tool outputs",
	ProbSummaryElse:     "nothing to do: the summary titles another session",
	ProbSessionMismatch: "nothing to do unless the copy was not meant (fork or resume copies keep the source id)",
	ProbEmpty:           "the file holds no conversation; remove it if it is not needed",
	ProbUnpairedToolUse: "add a tool_result or drop the call; the loader filters it or inserts a placeholder result",
	ProbOrphanResult:    "drop the tool_result or restore its tool_use",
	ProbMostOffPath:     "`sessctl tree` shows the unreachable records; Claude Code resumes only the shown conversation (re-chain parentUuid to keep the rest)",
}

// Problem codes found on the active path by PathProblems.
const (
	ProbUnpairedToolUse = "tool-use-without-result"
	ProbOrphanResult    = "tool-result-without-use"
)

// Fix returns the hint for a problem code ("" if none).
func Fix(code string) string { return fixes[code] }

// PathProblems decodes the conversation of the last-prompt leaf and reports
// tool calls without a result and results without a call.
func (f *File) PathProblems() ([]Problem, error) {
	leaf, err := f.Leaf(LeafLastPrompt)
	if err != nil || leaf == "" {
		return nil, err
	}
	p, err := f.Walk(leaf, false)
	if err != nil {
		return nil, err
	}
	// ids and types only: a long text is not decoded
	p.NoText, p.ids = true, true
	type at struct {
		line int
		uuid string
	}
	uses := map[string]at{}
	var order []string
	results := map[string]bool{}
	var out []Problem
	err = f.EachTurn(p, func(t *Turn) error {
		for i, b := range t.Blocks {
			line := t.Lines[0]
			if i < len(t.Lines) && len(t.Lines) == len(t.Blocks) {
				line = t.Lines[i]
			}
			switch b.Type {
			case "tool_use":
				if _, ok := uses[b.ID]; !ok {
					order = append(order, b.ID)
				}
				uses[b.ID] = at{line, t.UUID}
			case "tool_result":
				if _, ok := uses[b.ToolUseID]; !ok {
					out = append(out, Problem{Code: ProbOrphanResult, Line: line, UUID: t.UUID,
						Msg: fmt.Sprintf("tool_result for %s has no tool_use before it on the conversation", b.ToolUseID)})
				}
				results[b.ToolUseID] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, id := range order {
		if !results[id] {
			u := uses[id]
			out = append(out, Problem{Code: ProbUnpairedToolUse, Line: u.line, UUID: u.uuid,
				Msg: fmt.Sprintf("tool_use %s has no tool_result on the conversation", id)})
		}
	}
	sortProblems(out)
	return out, nil
}

// notSentText explains the NotSent reasons to people.
var notSentText = map[string]string{
	NotSentAPIError:     "a synthetic API error message",
	NotSentToolUse:      "its tool call has no result",
	NotSentToolResult:   "its tool call is not in the conversation",
	NotSentThinkingOnly: "thinking only",
	NotSentWhitespace:   "whitespace only",
}

// sendNotes says which parts of a turn Claude Code leaves out of the
// request (system records and pre-compaction history need no note).
func sendNotes(t *Turn) []string {
	if !t.Sent {
		if why, ok := notSentText[t.NotSent]; ok {
			return []string{"not sent to the model: " + why}
		}
		return nil
	}
	var out []string
	for _, d := range t.Dropped {
		why := notSentText[d.Reason]
		if d.Block >= 0 {
			out = append(out, fmt.Sprintf("block %d of line %d not sent to the model: %s", d.Block+1, t.LineOf(d.UUID), why))
		} else {
			out = append(out, fmt.Sprintf("line %d not sent to the model: %s", t.LineOf(d.UUID), why))
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
