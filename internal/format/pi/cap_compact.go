package pi

import "github.com/sessctl/sessctl/internal/model"

// CompactView lists the compactions on the path to the leaf.
func (s *Session) CompactView() (*model.CompactView, error) {
	leaf, err := s.LeafIndex()
	if err != nil {
		return nil, err
	}
	cv, err := s.File.CompactView(leaf)
	if cv != nil {
		cv.Path = s.ref.String()
	}
	return cv, err
}
