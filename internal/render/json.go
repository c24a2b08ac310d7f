package render

import (
	"encoding/json"
	"io"
)

// JSON writes v as JSON followed by a newline: indented for people when
// pretty is true, compact otherwise. HTML characters are not escaped.
func JSON(w io.Writer, v any, pretty bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if pretty {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}
