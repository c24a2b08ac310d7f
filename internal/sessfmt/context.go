package sessfmt

import (
	"io"

	"github.com/sessctl/sessctl/internal/images"
	"github.com/sessctl/sessctl/internal/model"
)

// ContextOptions tune how a session's context is rebuilt.
type ContextOptions struct {
	// AcrossCompactions follows compaction boundaries back to the start of
	// the history (Claude Code's logicalParentUuid); formats without such
	// boundaries ignore it.
	AcrossCompactions bool
	// SentOnly leaves out what the agent drops before sending the context
	// to the model (show --sent); only sessions that are SentMarkers get
	// it, commands refuse it for the others.
	SentOnly bool
	// Notify receives what the reader says about the view while it is
	// rebuilt (warnings, facts); nil drops them.
	Notify func(Notice)
}

// Notice passes n to o.Notify when it is set.
func (o ContextOptions) Notice(n Notice) {
	if o.Notify != nil {
		o.Notify(n)
	}
}

// TranscriptSink receives the human view of a context: the header lines
// once, then each message in order.
type TranscriptSink interface {
	// Header receives the lines that describe the session and the leaf.
	Header(lines []string) error
	// Message receives one message; m is not kept after the call.
	Message(m *model.Message) error
}

// Contexter is a session whose context (the conversation the model would
// see at the leaf) can be rebuilt: what `show` prints.
type Contexter interface {
	// Transcript rebuilds the context for people, message by message.
	Transcript(opts ContextOptions, sink TranscriptSink) error
	// WriteContextJSON writes show's --json object for the context on w
	// (one line, streamed one message at a time where the format allows).
	WriteContextJSON(w io.Writer, opts ContextOptions) error
}

// SentMarker is a Contexter whose context marks the messages, lines and
// content blocks the agent drops before sending the conversation to the
// model (Claude Code: synthetic API errors, tool calls without results,
// results without calls), so that ContextOptions.SentOnly can print
// exactly what is sent. Formats whose context is not marked that way are
// not SentMarkers: show --sent refuses them rather than claim their
// context is exactly the request.
type SentMarker interface {
	Contexter
	// MarksNotSent reports whether SentOnly is honoured.
	MarksNotSent() bool
}

// LeafChooser is a session whose active leaf depends on a leaf mode (Claude
// Code's last-prompt, picker, resume, file-order): commands say so when the
// modes disagree.
type LeafChooser interface {
	LeafChoice() LeafChoice
}

// LeafChoice is how a session's leaf was chosen.
type LeafChoice struct {
	// Mode is the mode in use.
	Mode string
	// Disagree is true when the modes lead to different conversations.
	Disagree bool
	// Summary says how they differ, for people.
	Summary string
	// ProblemCode is the code of the problem the reader files for the
	// disagreement; commands that report the choice themselves leave that
	// problem out of their diagnostics.
	ProblemCode string
}

// ImageExtractor is a session whose context images can be written to files
// (show --extract-images).
type ImageExtractor interface {
	// ExtractImages writes the images of the context at the leaf to dir
	// and says which it wrote and which it skipped (with the reason).
	ExtractImages(dir string) ([]images.Written, []images.Skipped, error)
}

// FooterSink is a TranscriptSink that also takes a closing line (a count
// of the messages in context); formats that have one give it.
type FooterSink interface {
	TranscriptSink
	Footer(line string) error
}

// ShortIDer is a session whose ids are long (uuids): views print their
// first ShortIDLen characters.
type ShortIDer interface {
	ShortIDLen() int
}

// SendTranscript gives a transcript built whole to sink: its header, then
// its messages.
func SendTranscript(sink TranscriptSink, tr *model.Transcript) error {
	if err := sink.Header(tr.Header); err != nil {
		return err
	}
	for i := range tr.Messages {
		if err := sink.Message(&tr.Messages[i]); err != nil {
			return err
		}
	}
	return nil
}
