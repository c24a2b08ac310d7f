package render

import (
	"bytes"
	"encoding/json"
	"io"
)

// JSON writes v as JSON followed by a newline: indented for people when
// pretty is true, compact otherwise. HTML characters are not escaped.
func JSON(w io.Writer, v any, pretty bool) error {
	if pretty {
		// a terminal: buffered, so characters it would act on are escaped
		return JSONStream(w, true, func(w io.Writer) error { return JSON(w, v, false) })
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// JSONStream runs write, which writes one JSON document, to w: straight
// through when pretty is false (streamed, never held in memory), else
// buffered and indented for people (a terminal). A document that does not
// indent is written as it is.
func JSONStream(w io.Writer, pretty bool, write func(io.Writer) error) error {
	if !pretty {
		return write(w)
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	var ind bytes.Buffer
	// On a terminal, characters it would act on are written as \u escapes
	// (EscapeJSONForTerminal).
	if err := json.Indent(&ind, buf.Bytes(), "", "  "); err != nil {
		_, err = w.Write(EscapeJSONForTerminal(buf.Bytes()))
		return err
	}
	if b := ind.Bytes(); len(b) > 0 && b[len(b)-1] != '\n' {
		ind.WriteByte('\n')
	}
	_, err := w.Write(EscapeJSONForTerminal(ind.Bytes()))
	return err
}
