package claude

import "github.com/sessctl/sessctl/internal/sessfmt"

// RawLines emits the stored lines of the path the loader would resume,
// byte for byte.
func (s *Session) RawLines(opts sessfmt.ContextOptions, emit func([]byte) error) error {
	p, err := s.walk(opts)
	if err != nil {
		return err
	}
	for _, ln := range p.Lines(s.File) {
		l, err := s.File.RawLine(ln)
		if err != nil {
			return err
		}
		if err := emit(l); err != nil {
			return err
		}
	}
	return nil
}
