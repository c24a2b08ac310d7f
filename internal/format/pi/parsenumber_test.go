package pi

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// TestParseNumber: parseNumber is strconv.ParseFloat on JSON numbers.
func TestParseNumber(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	nums := []string{"0", "1", "9", "1772323200000", "999999999999999", "1000000000000000", "9007199254740993",
		"12345678901234567890", "-1", "1.5", "1e3", "0.0", "-0", "1772323200000.25", "123456789012345"}
	for i := 0; i < 20000; i++ {
		nums = append(nums, strconv.FormatInt(rng.Int63n(1<<uint(rng.Intn(62)+1)), 10))
	}
	for _, s := range nums {
		want, werr := strconv.ParseFloat(s, 64)
		got, gerr := parseNumber([]byte(s))
		if got != want || (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: %v %v, want %v %v", s, got, gerr, want, werr)
		}
	}
}

// TestParseNumberEightAtATime: numbers of 8 to 15 bytes, which parseNumber
// reads 8 digits at a time, with every digit value at every place and a
// non-digit (the bytes around '0'-'9' too) at every place.
func TestParseNumberEightAtATime(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var nums []string
	for n := 8; n <= 15; n++ {
		for i := 0; i < n; i++ {
			for _, c := range []byte("0123456789/:.eE-+ ") {
				b := make([]byte, n)
				for j := range b {
					b[j] = byte('0' + rng.Intn(10))
				}
				b[i] = c
				nums = append(nums, string(b))
			}
		}
		nums = append(nums, strings.Repeat("9", n), strings.Repeat("0", n), "1"+strings.Repeat("0", n-1))
	}
	for _, s := range nums {
		want, werr := strconv.ParseFloat(s, 64)
		got, gerr := parseNumber([]byte(s))
		if (werr == nil) != (gerr == nil) || werr == nil && got != want {
			t.Fatalf("%q: %v %v, want %v %v", s, got, gerr, want, werr)
		}
	}
}
