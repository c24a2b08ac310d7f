package opencode

// MarkReverted flags the hidden tail of a pending revert, the way OpenCode's
// revert cleanup would remove it on the next prompt: every message from the
// one whose id is revert.messageID on; and, when revert.partID is set, the
// parts of the last preserved message from partID on. A revert whose message
// id is not found hides nothing. It returns the number of hidden messages.
func MarkReverted(t *Transcript) int {
	rv := t.Session.Revert
	if rv == nil || rv.MessageID == "" {
		return 0
	}
	cut := -1
	for i := range t.Messages {
		if t.Messages[i].ID == rv.MessageID {
			cut = i
			break
		}
	}
	if cut < 0 {
		return 0
	}
	for i := cut; i < len(t.Messages); i++ {
		t.Messages[i].Reverted = true
		for j := range t.Messages[i].Parts {
			t.Messages[i].Parts[j].Reverted = true
		}
	}
	if rv.PartID != "" && cut > 0 {
		last := &t.Messages[cut-1]
		hide := false
		for j := range last.Parts {
			if last.Parts[j].ID == rv.PartID {
				hide = true
			}
			if hide {
				last.Parts[j].Reverted = true
			}
		}
	}
	return len(t.Messages) - cut
}

func compactionPart(m *Message) *Part {
	for i := range m.Parts {
		if m.Parts[i].Type == "compaction" {
			return &m.Parts[i]
		}
	}
	return nil
}

// FilterCompacted returns the indexes of msgs (chronological) that OpenCode
// sends to the model, in the order it sends them. Like OpenCode's
// MessageV2.filterCompacted it walks newest to oldest, stops at the
// compaction request whose summary reply finished without error (or, when
// that request names a retained tail, at the tail's first message), and
// moves the compaction request and its summary before the retained tail.
func FilterCompacted(msgs []Message) []int {
	var rev []int
	completed := map[string]bool{}
	retain := ""
	for i := len(msgs) - 1; i >= 0; i-- {
		m := &msgs[i]
		rev = append(rev, i)
		if retain != "" {
			if m.ID == retain {
				break
			}
			continue
		}
		if m.Role == "user" && completed[m.ID] {
			cp := compactionPart(m)
			if cp == nil {
				continue
			}
			if cp.TailStartID == "" {
				break
			}
			retain = cp.TailStartID
			if m.ID == retain {
				break
			}
			continue
		}
		if m.Role == "assistant" && m.Summary && m.Finish != "" && m.Error == nil {
			completed[m.ParentID] = true
		}
	}
	res := make([]int, len(rev))
	for i, v := range rev {
		res[len(rev)-1-i] = v
	}
	// Reorder to [compaction request, summary, retained tail, newer…].
	ci := -1
	for k := len(res) - 1; k >= 0; k-- {
		m := &msgs[res[k]]
		if cp := compactionPart(m); m.Role == "user" && cp != nil && cp.TailStartID != "" {
			ci = k
			break
		}
	}
	if ci < 0 {
		return res
	}
	comp := &msgs[res[ci]]
	tailID := compactionPart(comp).TailStartID
	si, ti := -1, -1
	for k := range res {
		m := &msgs[res[k]]
		if si < 0 && k > ci && m.Role == "assistant" && m.Summary && m.ParentID == comp.ID {
			si = k
		}
		if ti < 0 && m.ID == tailID {
			ti = k
		}
	}
	if ti >= 0 && ti < ci && si > ci {
		out := make([]int, 0, len(res))
		out = append(out, res[ci:si+1]...)
		out = append(out, res[ti:ci]...)
		out = append(out, res[si+1:]...)
		return out
	}
	return res
}

// Compaction describes one compaction request in a session.
type Compaction struct {
	// Request is the index of the user message holding the compaction part.
	Request     int    `json:"request"`
	RequestID   string `json:"requestID"`
	Auto        bool   `json:"auto"`
	Overflow    bool   `json:"overflow"`
	TailStartID string `json:"tailStartID,omitempty"`
	// Summary is the index of the summary assistant reply, or -1.
	Summary   int    `json:"summary"`
	SummaryID string `json:"summaryID,omitempty"`
	// Completed: the summary finished without error, so the compaction took effect.
	Completed bool `json:"completed"`
	// Hidden are the indexes of earlier messages it replaces (all messages
	// before the request except the retained tail).
	Hidden []int `json:"hidden"`
	// Tail are the indexes of the retained tail (tailStartID up to the request).
	Tail []int `json:"tail,omitempty"`
	// Effective marks the compaction OpenCode's loader stops at today.
	Effective bool `json:"effective"`
}

// Compactions lists the compaction requests of a transcript, oldest first,
// with their summaries and what each hides. The effective one is the one
// FilterCompacted cuts at.
func Compactions(msgs []Message) []Compaction {
	var out []Compaction
	for i := range msgs {
		m := &msgs[i]
		cp := compactionPart(m)
		if m.Role != "user" || cp == nil {
			continue
		}
		c := Compaction{Request: i, RequestID: m.ID, Auto: cp.Auto, Overflow: cp.Overflow, TailStartID: cp.TailStartID, Summary: -1}
		for k := i + 1; k < len(msgs); k++ {
			a := &msgs[k]
			if a.Role == "assistant" && a.Summary && a.ParentID == m.ID {
				c.Summary, c.SummaryID = k, a.ID
				c.Completed = a.Finish != "" && a.Error == nil
				break
			}
		}
		tail := -1
		if cp.TailStartID != "" {
			for k := 0; k < i; k++ {
				if msgs[k].ID == cp.TailStartID {
					tail = k
					break
				}
			}
		}
		for k := 0; k < i; k++ {
			if tail >= 0 && k >= tail {
				c.Tail = append(c.Tail, k)
			} else {
				c.Hidden = append(c.Hidden, k)
			}
		}
		out = append(out, c)
	}
	// The effective compaction is the newest completed one.
	for k := len(out) - 1; k >= 0; k-- {
		if out[k].Completed {
			out[k].Effective = true
			break
		}
	}
	return out
}
