package sessfmt

import "time"

// Bounds of the milliseconds since the Unix epoch that UnixMilli accepts:
// the first and last millisecond of years 0 and 9999, the years RFC 3339
// and encoding/json can write (time.Time.MarshalJSON fails outside them).
// Both lie inside what a JavaScript Date holds (±8.64e15 ms).
const (
	minPrintMillis = -62167219200000 // 0000-01-01T00:00:00.000Z
	maxPrintMillis = 253402300799999 // 9999-12-31T23:59:59.999Z
)

// UnixMilli returns the UTC time ms milliseconds after the Unix epoch
// (truncated toward zero, as a JavaScript Date does) and whether it is one
// that can be printed: not NaN, a JavaScript Date's range and in years
// 0-9999. A caller turning a session's number into a listed time uses it
// and treats false as "no time", so that one session's far-future
// timestamp cannot make the whole list's JSON encoding fail.
func UnixMilli(ms float64) (time.Time, bool) {
	if !PrintableMillis(ms) {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(ms)).UTC(), true
}

// PrintableTime reports whether t (in UTC) falls in years 0-9999, the
// years encoding/json can write: an RFC 3339 text with an offset
// ("9999-12-31T23:00:00-05:00") can name a UTC time in year 10000.
func PrintableTime(t time.Time) bool {
	y := t.UTC().Year()
	return y >= 0 && y <= 9999
}

// PrintableMillis reports whether UnixMilli accepts ms (NaN fails both
// comparisons).
func PrintableMillis(ms float64) bool {
	return ms >= minPrintMillis && ms < maxPrintMillis+1
}

// ClampPrintable returns t unchanged when PrintableTime(t), else the first
// or the last nanosecond of years 0-9999 (UTC), whichever is nearer. It is
// for times no session wrote, such as a file's mtime: a file system like
// tmpfs or btrfs can hold one in year 14645, and a listed row must still
// be printable (list shows it as late as it can write).
func ClampPrintable(t time.Time) time.Time {
	if PrintableTime(t) {
		return t
	}
	if t.UTC().Year() < 0 {
		return time.UnixMilli(minPrintMillis).UTC()
	}
	return time.UnixMilli(maxPrintMillis).UTC().Add(999999 * time.Nanosecond)
}
