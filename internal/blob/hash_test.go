package blob

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const hexA = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// badRefs are strings that must never become a Hash (and so never a path).
var badRefs = []string{
	"",
	"blob:sha256:",
	"blob:sha256:../../etc/passwd",
	"blob:sha256:../../../../../../../../../../../../../../../../../etc/passwd",
	"blob:sha256:" + strings.ToUpper(hexA),
	"blob:sha256:" + hexA[:63],
	"blob:sha256:" + hexA + "0",
	"blob:sha256:" + hexA + "/",
	"blob:sha256:" + hexA + "\n",
	" blob:sha256:" + hexA,
	"BLOB:SHA256:" + hexA,
	"blob:sha512:" + hexA,
	"blob:sha256:" + hexA[:62] + "/x",
	"blob:sha256:" + hexA[:60] + "\x00abc",
	"blob:sha256:" + hexA[:63] + "g",
	"blob:sha256:" + hexA[:63] + "é",
	hexA,
}

func TestParseRefRejects(t *testing.T) {
	for _, s := range badRefs {
		h, err := ParseRef(s)
		if err == nil {
			t.Errorf("ParseRef(%q) = %v, want error", s, h)
			continue
		}
		if !errors.Is(err, ErrBadRef) {
			t.Errorf("ParseRef(%q) error %v does not wrap ErrBadRef", s, err)
		}
		if h != (Hash{}) {
			t.Errorf("ParseRef(%q) returned non-zero hash with error", s)
		}
	}
}

func TestParseRefAccepts(t *testing.T) {
	h, err := ParseRef("blob:sha256:" + hexA)
	if err != nil {
		t.Fatal(err)
	}
	if h.String() != hexA {
		t.Fatalf("String() = %s", h.String())
	}
	if h.Ref() != "blob:sha256:"+hexA {
		t.Fatalf("Ref() = %s", h.Ref())
	}
	want := [32]byte{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}
	if [8]byte(h[:8]) != [8]byte(want[:8]) {
		t.Fatalf("decoded bytes %x", h[:8])
	}
	sum := sha256.Sum256([]byte("hello"))
	if Sum([]byte("hello")) != Hash(sum) || Sum([]byte("hello")).String() != "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" {
		t.Fatalf("Sum(hello) = %s", Sum([]byte("hello")))
	}
	h2, err := ParseHex(Hash(sum).String())
	if err != nil || h2 != Hash(sum) {
		t.Fatalf("ParseHex round trip: %v %v", h2, err)
	}
}

func TestParseHexRejects(t *testing.T) {
	for _, s := range []string{"", hexA[:63], hexA + "0", strings.ToUpper(hexA), "../" + hexA[3:], hexA[:63] + "."} {
		if _, err := ParseHex(s); err == nil {
			t.Errorf("ParseHex(%q) accepted", s)
		}
	}
}

func TestHashJSON(t *testing.T) {
	h, _ := ParseHex(hexA)
	b, err := json.Marshal(map[string]Hash{"h": h})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"h":"`+hexA+`"}` {
		t.Fatalf("json = %s", b)
	}
	var back map[string]Hash
	if err := json.Unmarshal(b, &back); err != nil || back["h"] != h {
		t.Fatalf("unmarshal: %v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"h":"../../etc/passwd"}`), &back); err == nil {
		t.Fatal("unmarshal accepted a traversal string")
	}
}

func TestStorePathOnlyHex(t *testing.T) {
	s := Store{Dir: filepath.Join("some", "store")}
	h, _ := ParseHex(hexA)
	if got, want := s.Path(h), filepath.Join("some", "store", hexA); got != want {
		t.Fatalf("Path = %s, want %s", got, want)
	}
}

var refOracle = regexp.MustCompile(`^blob:sha256:[a-f0-9]{64}$`)

func FuzzParseRef(f *testing.F) {
	for _, s := range badRefs {
		f.Add(s)
	}
	f.Add("blob:sha256:" + hexA)
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseRef(s)
		if ok := refOracle.MatchString(s); ok != (err == nil) {
			t.Fatalf("ParseRef(%q) err=%v, oracle match=%v", s, err, ok)
		}
		if err != nil {
			return
		}
		if h.Ref() != s {
			t.Fatalf("round trip %q -> %q", s, h.Ref())
		}
		dir := filepath.Join("d", "store")
		p := Store{Dir: dir}.Path(h)
		if filepath.Dir(p) != dir || filepath.Base(p) != s[len(RefPrefix):] {
			t.Fatalf("Path escaped: %q", p)
		}
	})
}
