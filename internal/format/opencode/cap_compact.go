package opencode

import "github.com/sessctl/sessctl/internal/model"

// CompactView lists the session's compactions: each request, its summary,
// the messages it hides and the retained tail.
func (o *Opened) CompactView() (*model.CompactView, error) {
	t, err := o.Loaded()
	if err != nil {
		return nil, err
	}
	return CompactView(t), nil
}
