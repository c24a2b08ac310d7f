package opencode

import "github.com/sessctl/sessctl/internal/sessfmt"

// RawLines emits each message as stored, followed by its parts.
func (o *Opened) RawLines(opts sessfmt.ContextOptions, emit func([]byte) error) error {
	t, err := o.Loaded()
	if err != nil {
		return err
	}
	for _, m := range t.Messages {
		if err := emit(m.Raw); err != nil {
			return err
		}
		for _, p := range m.Parts {
			if err := emit(p.Raw); err != nil {
				return err
			}
		}
	}
	return nil
}
