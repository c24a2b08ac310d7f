package sessfmt

import (
	"io"

	"github.com/sessctl/sessctl/internal/model"
)

// Treer is a session whose entries can be drawn as a tree: what `tree`
// prints.
type Treer interface {
	// TreeView returns the tree to draw, marked for the session's leaf.
	TreeView() (*TreeView, error)
	// WriteTreeJSON writes tree's --json object on w. pretty asks for the
	// indented form (a terminal); a format may stream compact JSON either
	// way and let the caller indent it.
	WriteTreeJSON(w io.Writer, pretty bool) error
}

// TreeView is a session's tree with what the drawing needs to know.
type TreeView struct {
	// Header is the dimmed line drawn above the tree ("" for none).
	Header string
	// Tree is the main tree; Groups are titled trees drawn after it.
	Tree   *model.Tree
	Groups []model.TreeGroup
	// Fill fills the text of the nodes about to be drawn (nil: the nodes
	// already carry their text).
	Fill func(t *model.Tree, nodes []int) error
	// Footer asks for the legend below the tree (orphans, cycles, leaf).
	Footer bool
	// ShortIDs is how many characters of an id are drawn (0: whole ids).
	ShortIDs int
	// FlatLast draws a parent's last child at the parent's depth, as
	// Claude Code's transcript chains read best.
	FlatLast bool
	// Notices are what the reader says about the tree (store files it
	// could not read, …), printed on stderr before it.
	Notices []Notice
	// Close releases what the view holds (nil: nothing).
	Close func() error
}

// TreeNoticer is a Treer with notices about the tree in every output mode
// (subagent folders or store files it could not read), printed on stderr
// before the tree or its JSON. TreeView.Notices are printed only with the
// drawn tree.
type TreeNoticer interface {
	TreeNotices() []Notice
}
