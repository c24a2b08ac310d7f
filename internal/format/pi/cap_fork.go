package pi

import (
	"fmt"

	"github.com/sessctl/sessctl/internal/safewrite"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

var _ sessfmt.Forker = (*Writable)(nil)

// Fork writes the path to an entry (or the whole tree) into a new session
// file (sessfmt.Forker). A fork of an OpenClaw transcript is a pi file in
// the agent's sessions folder that no sessions.json entry names: OpenClaw
// will not open it, and the result says so.
func (s *Writable) Fork(opts sessfmt.ForkOptions) (*sessfmt.ForkResult, error) {
	res, err := s.w.ForkFile(s, opts)
	if err != nil {
		return nil, err
	}
	res.Summary = fmt.Sprintf("%d entries (%d re-chained past dropped labels, %d labels re-added)", res.Entries, res.Relinked, res.LabelsKept)
	if safewrite.IsOpenClawTranscript(s.ref.Path) {
		res.Notes = append(res.Notes, "no sessions.json entry names the new file, so OpenClaw will not open it; sessctl reads it as a pi session (it lists as an unindexed transcript)")
	}
	return res, nil
}
