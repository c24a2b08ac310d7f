package agentcore

import "github.com/sessctl/sessctl/internal/sessfmt"

// RawLines emits the stored lines of the root→leaf path, byte for byte.
func (o *Opened) RawLines(opts sessfmt.ContextOptions, emit func([]byte) error) error {
	leaf, err := o.LeafIndex()
	if err != nil || leaf < 0 {
		return err
	}
	for _, i := range o.S.PathTo(leaf) {
		raw, err := o.S.Raw(i)
		if err != nil {
			return err
		}
		if err := emit(raw); err != nil {
			return err
		}
	}
	return nil
}
