package search

import "encoding/binary"

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// indexPair returns the index of the first i with b[i] == c0 and
// b[i+1] == c1, or -1.
//
// It tests 32 positions a step, eight at a time in 64-bit words (SWAR): the
// word at i XOR c0 in every byte, ORed with the word at i+1 XOR c1, has a
// zero byte exactly where the pair starts, and "has a zero byte" is one
// subtraction and two masks. In JSON text the pair \u is rare while its
// first byte (every \n and \" escape) is common, so this is several times
// faster than bytes.Index, which stops at every backslash.
func indexPair(b []byte, c0, c1 byte) int {
	return indexPairOr(b, c0, 0, c1, 0)
}

// foldBit is what ORing a letter with makes it lower case: for a lower-case
// ASCII letter c, b|foldBit == c exactly when b is c or its upper case.
const foldBit = 0x20

// caseBit returns foldBit for an ASCII letter, else 0 (compare exactly).
func caseBit(c byte) byte {
	if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') {
		return foldBit
	}
	return 0
}

// indexPairOrSWAR is indexPair comparing b[i]|o0 with c0 and b[i+1]|o1
// with c1: with o = caseBit(c) and c lowered, an ASCII-case-insensitive pair
// search (o = 0: exact). indexPairOr is this, or the same with AVX2 on
// amd64 processors that have it (pairscan_amd64.s).
func indexPairOrSWAR(b []byte, c0, o0, c1, o1 byte) int {
	m0, f0 := lsb*uint64(c0), lsb*uint64(o0)
	m1, f1 := lsb*uint64(c1), lsb*uint64(o1)
	i := 0
	for ; i+33 <= len(b); i += 32 {
		s := b[i : i+33 : i+33]
		z0 := ((binary.LittleEndian.Uint64(s[0:8]) | f0) ^ m0) | ((binary.LittleEndian.Uint64(s[1:9]) | f1) ^ m1)
		z1 := ((binary.LittleEndian.Uint64(s[8:16]) | f0) ^ m0) | ((binary.LittleEndian.Uint64(s[9:17]) | f1) ^ m1)
		z2 := ((binary.LittleEndian.Uint64(s[16:24]) | f0) ^ m0) | ((binary.LittleEndian.Uint64(s[17:25]) | f1) ^ m1)
		z3 := ((binary.LittleEndian.Uint64(s[24:32]) | f0) ^ m0) | ((binary.LittleEndian.Uint64(s[25:33]) | f1) ^ m1)
		t := ((z0 - lsb) &^ z0) | ((z1 - lsb) &^ z1) | ((z2 - lsb) &^ z2) | ((z3 - lsb) &^ z3)
		if t&msb != 0 {
			// A zero byte in one of the words (the test is exact about
			// whether there is one): find the first pair in this step.
			for j := i; j < i+32; j++ {
				if b[j]|o0 == c0 && b[j+1]|o1 == c1 {
					return j
				}
			}
		}
	}
	for ; i+1 < len(b); i++ {
		if b[i]|o0 == c0 && b[i+1]|o1 == c1 {
			return i
		}
	}
	return -1
}
