package pi

import "github.com/sessctl/sessctl/internal/jsonl"

// maxDepth is the nesting limit, as in the jsonl reader: deeper values
// count as malformed.
const maxDepth = jsonl.MaxDepth

// Members of a line that the listing looks at, captured while validating
// (the raw value bytes; the last occurrence of a repeated key wins, as in
// JSON.parse).
const (
	kType = iota
	kID
	kParentID
	kMessage
	kTimestamp
	kName
	kTitle
	kModel
	kCwd
	kParentSession
	nTop
)

var topKeys = [nTop]string{"type", "id", "parentId", "message", "timestamp", "name", "title", "model", "cwd", "parentSession"}

// Members of the "message" object.
const (
	mRole = iota
	mContent
	mTimestamp
	nMsg
)

var msgKeys = [nMsg]string{"role", "content", "timestamp"}

// listCapture is what the listing captures while validating a line.
var listCapture = &jsonl.Capture{Top: topKeys[:], Sub: "message", SubKeys: msgKeys[:]}

// validator validates a line with jsonl.Scanner and keeps the captured
// members (top: topKeys, msg: msgKeys) until the next scan.
type validator struct {
	s        *jsonl.Scanner
	top, msg [][]byte
}

func (v *validator) scan(b []byte) bool {
	if v.s == nil {
		v.s = jsonl.NewScanner(listCapture)
	}
	ok := v.s.Scan(b)
	v.top, v.msg = v.s.Top, v.s.Sub
	return ok
}
