package sessfmt

import "io"

// PiWriter is a session that can be written out as a pi JSONL session file
// (`export --format pi`): a pi-family file as stored, and an OpenClaw
// database session as the pi lines its events are (a header added when it
// has none).
type PiWriter interface {
	// WritePi writes the session's lines on w and says how many.
	WritePi(w io.Writer) (lines int, err error)
}
