package claude

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

func decodeRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }

// AppendJSON appends t as JSON (the same object json.Marshal(t) gives, HTML
// characters left unescaped), copying the content blocks and usage as they
// were re-serialised from the file instead of re-validating them.
func (t *Turn) AppendJSON(b []byte) []byte {
	str := func(key, v string, omitEmpty bool) {
		if omitEmpty && v == "" {
			return
		}
		b = append(b, ',', '"')
		b = append(b, key...)
		b = append(b, '"', ':')
		b = appendString(b, v)
	}
	flag := func(key string, v bool) {
		if v {
			b = append(b, ',', '"')
			b = append(b, key...)
			b = append(b, `":true`...)
		}
	}
	raw := func(key string, v json.RawMessage) {
		if len(v) == 0 {
			return
		}
		b = append(b, ',', '"')
		b = append(b, key...)
		b = append(b, '"', ':')
		b = append(b, v...)
	}
	b = append(b, `{"uuid":`...)
	b = appendString(b, t.UUID)
	if len(t.UUIDs) > 0 {
		b = append(b, `,"uuids":[`...)
		for i, u := range t.UUIDs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, u)
		}
		b = append(b, ']')
	}
	str("type", t.Type, false)
	str("subtype", t.Subtype, true)
	str("role", t.Role, true)
	str("timestamp", t.Timestamp, true)
	b = append(b, `,"content":[`...)
	for i, c := range t.Content {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, c...)
	}
	b = append(b, ']')
	str("model", t.Model, true)
	raw("usage", t.Usage)
	str("messageId", t.MessageID, true)
	flag("isMeta", t.IsMeta)
	flag("isCompactSummary", t.IsCompactSummary)
	flag("isSidechain", t.IsSidechain)
	flag("isApiError", t.IsAPIError)
	str("logicalParentUuid", t.LogicalParentUUID, true)
	raw("compactMetadata", t.CompactMetadata)
	flag("rescued", t.Rescued)
	flag("preCompaction", t.PreCompaction)
	if t.Sent {
		b = append(b, `,"sent":true`...)
	} else {
		b = append(b, `,"sent":false`...)
	}
	str("notSent", t.NotSent, true)
	if len(t.Dropped) > 0 {
		b = append(b, `,"dropped":[`...)
		for i, d := range t.Dropped {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"uuid":`...)
			b = appendString(b, d.UUID)
			b = append(b, `,"block":`...)
			b = strconv.AppendInt(b, int64(d.Block), 10)
			b = append(b, `,"reason":`...)
			b = appendString(b, d.Reason)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"lines":[`...)
	for i, l := range t.Lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(l), 10)
	}
	return append(b, ']', '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string (invalid UTF-8 becomes U+FFFD,
// as encoding/json does; <, > and & are not escaped).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := decodeRune(s[i:])
		if r == 0xFFFD && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
