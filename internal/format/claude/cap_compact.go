package claude

import (
	"github.com/sessctl/sessctl/internal/model"
	"github.com/sessctl/sessctl/internal/sessfmt"
)

// CompactView lists the compactions on the whole history (the path from
// the last-prompt leaf, or --leaf, across boundaries).
func (s *Session) CompactView() (*model.CompactView, error) {
	cv, err := s.File.CompactView(s.LeafArg)
	if err != nil && s.LeafArg != "" {
		return nil, &sessfmt.LeafError{Err: err}
	}
	return cv, err
}
