package sessfmt

import "github.com/sessctl/sessctl/internal/model"

// Compacter is a session whose compactions can be listed: what
// `compact-view` prints.
type Compacter interface {
	// CompactView lists the compactions on the path to the leaf.
	CompactView() (*model.CompactView, error)
}
