package claude

import (
	"fmt"

	"github.com/sessctl/sessctl/internal/sessfmt"
)

var _ sessfmt.Forker = (*Writable)(nil)

// Fork writes the records Claude Code loads for an entry into a new
// transcript in the same project folder (sessfmt.Forker), as /branch does.
func (s *Writable) Fork(opts sessfmt.ForkOptions) (*sessfmt.ForkResult, error) {
	res, err := s.w.ForkFile(s, opts)
	if err != nil {
		return nil, err
	}
	res.Summary = fmt.Sprintf("%d records (%d re-chained to the previous one)", res.Entries, res.Relinked)
	return res, nil
}
