// Package model holds the format-neutral views that the renderers draw: a
// transcript of messages and a tree of entries. Format packages build them;
// internal/render prints them.
package model

import "time"

// Block is one piece of a message's content.
type Block struct {
	Kind    string // text, thinking, toolCall, toolResult, image, other
	Text    string // text, thinking text, tool result text, or a description
	Name    string // tool name (toolCall, toolResult)
	ID      string // tool call id
	Args    string // tool arguments as compact JSON
	MIME    string // image media type
	Size    int64  // image size in bytes (decoded), -1 when unknown
	Ref     string // blob reference, when the bytes live in a blob store
	IsError bool   // tool result marked as an error
	// LongText, when not nil, is where the block's text is (Text is then
	// empty): a text too long to hold, decoded from the file as it is
	// printed. Only sinks that are TextRefTakers get such blocks.
	LongText *TextRef
}

// TextRef locates a text that is not held in memory: a JSON string value,
// quotes included, of Len bytes at offset Off of the file Path, decoded in
// pieces where it is printed (jsonl.DecodeString; render draws it).
type TextRef struct {
	Path     string
	Off, Len int64
	// Verbatim: the string holds no escape and its bytes are the text as
	// they are (jsonl.String's reading of such a string).
	Verbatim bool
	// Loose: the string is unescaped as fastjson does (the Claude Code
	// reader's decoding: jsonl.DecodeStringLoose), not as encoding/json.
	Loose bool
}

// TextRefTaker is implemented by a transcript sink that prints blocks
// whose text is a TextRef (render.DrawMessage does); a sink that is not
// one gets every text in Text.
type TextRefTaker interface {
	TakesTextRefs() bool
}

// Message is one message of a transcript.
type Message struct {
	ID     string // entry id or uuid, when there is one
	Role   string // user, assistant, toolResult, custom, system, …
	Marker string // what makes it special: "compaction summary", "branch summary", "custom: <type>", …
	Time   time.Time
	Model  string
	Blocks []Block
	Notes  []string // small facts shown dimmed (hidden from UI, excluded from context, stop reason…)
}

// Transcript is what show prints for people.
type Transcript struct {
	Title    string
	Header   []string // lines describing the session and the leaf
	Messages []Message
	Warnings []string
}

// TreeNode is one entry of a tree view.
type TreeNode struct {
	ID        string
	ParentID  string
	HasParent bool
	Type      string
	Role      string
	Label     string
	Line      int
	Time      time.Time
	Text      string // first line of its text, filled only for drawn nodes
	Children  []int  // node numbers in drawing order
	Marks     []string
	Separator string // drawn as a rule before the node (e.g. a compaction boundary)
}

// Tree is what tree prints.
type Tree struct {
	Nodes      []TreeNode // file order
	Roots      []int      // drawing roots (true roots, orphans and self-parents)
	Leaf       int        // active leaf, -1 when none
	Active     []bool     // node is on the active path
	Orphans    []int
	Cycles     [][]int
	Duplicates []string
	// Groups are extra trees drawn after the main one (e.g. unlinked subagents).
	Groups []TreeGroup
	// Source, when set, gives the tree node by node and the other fields
	// but Leaf and Groups are empty: a tree of millions of entries is drawn
	// without a model of every node (render.DrawTree streams it).
	Source TreeSource
}

// TreeSource gives a tree one node at a time.
type TreeSource interface {
	// Roots calls fn with each drawing root in order until fn returns false.
	Roots(fn func(node int) bool)
	// NumChildren and Child give the children of a node in drawing order.
	NumChildren(node int) int
	Child(node, k int) int
	// Keep reports whether a node must be drawn even inside a folded run
	// (it has a label, a mark or a separator, or it is the active leaf).
	Keep(node int) bool
	// Active reports whether a node is on the active path; Leaf is the
	// active leaf (-1 when none).
	Active(node int) bool
	Leaf() int
	// Node returns a node as drawn, its text filled (Children left empty).
	// It is called once for each drawn node, in drawing order.
	Node(node int) (TreeNode, error)
	// Len is the number of nodes.
	Len() int
	// Footer is what is listed below the tree.
	Footer() *TreeFooter
}

// TreeFooter is what the footer below a tree lists.
type TreeFooter struct {
	Orphans    []FooterNode
	Cycles     [][]FooterNode
	Duplicates []FooterDup
}

// FooterNode is a node named in a tree's footer.
type FooterNode struct {
	Line       int
	ID, Parent string
}

// FooterDup is a duplicated id and the lines that use it.
type FooterDup struct {
	ID    string
	Lines []int
}

// TreeGroup is a titled extra tree.
type TreeGroup struct {
	Title string
	Tree  *Tree
}
