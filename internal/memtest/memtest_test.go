package memtest

import "testing"

var sink []byte

func TestAllocatedCountsWhatFnAllocates(t *testing.T) {
	const n = 8 << 20
	got := Allocated(func() { sink = make([]byte, n) })
	if got < n {
		t.Fatalf("Allocated = %d bytes for a %d-byte slice", got, n)
	}
	if none := Allocated(func() {}); none >= n {
		t.Fatalf("Allocated = %d bytes for an empty func", none)
	}
}
