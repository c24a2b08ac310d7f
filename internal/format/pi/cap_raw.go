package pi

import "github.com/sessctl/sessctl/internal/sessfmt"

// RawLines emits the stored lines of the path to the leaf, byte for byte
// (the header is not on the path).
func (s *Session) RawLines(opts sessfmt.ContextOptions, emit func([]byte) error) error {
	leaf, err := s.LeafIndex()
	if err != nil {
		return err
	}
	ctx, path, err := s.File.PathTo(leaf)
	if err != nil {
		return err
	}
	notify(ctx, opts)
	return s.File.EachLine(path, func(_ int, l []byte) error { return emit(l) })
}
