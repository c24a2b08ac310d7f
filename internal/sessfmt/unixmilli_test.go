package sessfmt

import (
	"encoding/json"
	"math"
	"testing"
	"time"
)

func TestUnixMilliPrintable(t *testing.T) {
	for _, c := range []struct {
		ms   float64
		ok   bool
		want string
	}{
		{0, true, "1970-01-01T00:00:00Z"},
		{1769904005000, true, "2026-02-01T00:00:05Z"},
		{253402300799999, true, "9999-12-31T23:59:59.999Z"},
		{253402300800000, false, ""}, // year 10000: a JS Date, not printable
		{-62167219200000, true, "0000-01-01T00:00:00Z"},
		{-62167219200001, false, ""},
		{8.64e15, false, ""},
		{9e15, false, ""},
		{-8.64e15, false, ""},
		{math.NaN(), false, ""},
		{math.Inf(1), false, ""},
	} {
		got, ok := UnixMilli(c.ms)
		if ok != c.ok || ok != PrintableMillis(c.ms) {
			t.Errorf("UnixMilli(%v) ok = %v, PrintableMillis %v, want %v", c.ms, ok, PrintableMillis(c.ms), c.ok)
			continue
		}
		if !ok {
			if !got.IsZero() {
				t.Errorf("UnixMilli(%v) = %v, want zero", c.ms, got)
			}
			continue
		}
		if s := got.Format(time.RFC3339Nano); s != c.want {
			t.Errorf("UnixMilli(%v) = %s, want %s", c.ms, s, c.want)
		}
		if _, err := json.Marshal(got); err != nil {
			t.Errorf("UnixMilli(%v) cannot be encoded: %v", c.ms, err)
		}
	}
}

func TestPrintableTime(t *testing.T) {
	for s, want := range map[string]bool{
		"9999-12-31T23:59:59Z":      true,
		"9999-12-31T23:00:00-05:00": false, // year 10000 in UTC
		"0000-01-01T00:30:00+01:00": false, // year -1 in UTC
		"2026-01-01T00:00:00+01:00": true,
	} {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		if got := PrintableTime(tm); got != want {
			t.Errorf("PrintableTime(%s) = %v, want %v", s, got, want)
		}
		if _, err := json.Marshal(tm.UTC()); (err == nil) != want {
			t.Errorf("%s: encodes %v, want %v", s, err == nil, want)
		}
	}
}

// ClampPrintable keeps printable times as they are (location too) and
// moves others to the nearer end of years 0-9999, which encoding/json
// writes.
func TestClampPrintable(t *testing.T) {
	first := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	last := time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
	east := time.FixedZone("east", 5*3600)
	for _, c := range []struct{ in, want time.Time }{
		{time.Date(2026, 1, 2, 3, 4, 5, 6, east), time.Date(2026, 1, 2, 3, 4, 5, 6, east)},
		{first, first},
		{last, last},
		{last.Add(time.Nanosecond), last},
		{time.Unix(400000000000, 0), last},
		{first.Add(-time.Nanosecond), first},
		{time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC), first},
	} {
		got := ClampPrintable(c.in)
		if !got.Equal(c.want) || got.Location().String() != c.want.Location().String() {
			t.Errorf("ClampPrintable(%v) = %v, want %v", c.in, got, c.want)
		}
		if _, err := got.MarshalJSON(); err != nil {
			t.Errorf("ClampPrintable(%v) = %v: %v", c.in, got, err)
		}
	}
}
