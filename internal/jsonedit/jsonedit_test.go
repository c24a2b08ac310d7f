package jsonedit

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"unicode/utf8"
)

const tricky = "{ \"a\" : \"x}{\\\"\" , \"b\":{\"c\":[1,{\"d\":\"}\"}],\"role\":\"hookMessage\"}, \"\\u0069d\":1e2 }\r\n"

func TestGet(t *testing.T) {
	cases := []struct {
		line, key, want string
		ok              bool
	}{
		{tricky, "a", `"x}{\""`, true},
		{tricky, "b", `{"c":[1,{"d":"}"}],"role":"hookMessage"}`, true},
		{tricky, "id", `1e2`, true},
		{tricky, "c", "", false},
		{`{"a":1,"a":2}`, "a", "2", true},
		{`{}`, "a", "", false},
		{"  {\"k\":null}\n", "k", "null", true},
	}
	for _, c := range cases {
		got, ok, err := Get([]byte(c.line), c.key)
		if err != nil || ok != c.ok || string(got) != c.want {
			t.Errorf("Get(%q,%q) = %q,%v,%v want %q,%v", c.line, c.key, got, ok, err, c.want, c.ok)
		}
	}
	got, ok, _ := GetPath([]byte(tricky), "b", "role")
	if !ok || string(got) != `"hookMessage"` {
		t.Errorf("GetPath = %q %v", got, ok)
	}
	if _, ok, _ := GetPath([]byte(tricky), "a", "role"); ok {
		t.Errorf("GetPath through a string should be absent")
	}
	s, ok, _ := String([]byte(`{"type":"sess\u0069on"}`), "type")
	if !ok || s != "session" {
		t.Errorf("String = %q %v", s, ok)
	}
}

func TestSet(t *testing.T) {
	cases := []struct{ line, key, val, want string }{
		{`{"a":1}`, "id", `"x"`, `{"a":1,"id":"x"}`},
		{`{}`, "id", `"x"`, `{"id":"x"}`},
		{"{ }", "id", `"x"`, `{ "id":"x"}`},
		{"{ \"a\" : 1 }\r\n", "id", `"x"`, "{ \"a\" : 1,\"id\":\"x\" }\r\n"},
		{`{"a":1,"b":[2]}`, "a", `null`, `{"a":null,"b":[2]}`},
		{`{"a":1,"b":2,"a":3}`, "a", `"z"`, `{"a":"z","b":2,"a":"z"}`},
		{tricky, "id", `"abcd1234"`, "{ \"a\" : \"x}{\\\"\" , \"b\":{\"c\":[1,{\"d\":\"}\"}],\"role\":\"hookMessage\"}, \"\\u0069d\":\"abcd1234\" }\r\n"},
		{`{"a":1}`, "<&>", `1`, `{"a":1,"<&>":1}`},
	}
	for _, c := range cases {
		got, err := Set([]byte(c.line), c.key, []byte(c.val))
		if err != nil || string(got) != c.want {
			t.Errorf("Set(%q,%q,%s) = %q,%v want %q", c.line, c.key, c.val, got, err, c.want)
		}
	}
	got, err := SetPath([]byte(tricky), []byte(`"custom"`), "b", "role")
	want := "{ \"a\" : \"x}{\\\"\" , \"b\":{\"c\":[1,{\"d\":\"}\"}],\"role\":\"custom\"}, \"\\u0069d\":1e2 }\r\n"
	if err != nil || string(got) != want {
		t.Errorf("SetPath = %q %v", got, err)
	}
	got, err = SetPath([]byte(`{"message":{"content":"x"}}`), []byte(`"user"`), "message", "role")
	if err != nil || string(got) != `{"message":{"content":"x","role":"user"}}` {
		t.Errorf("SetPath append = %q %v", got, err)
	}
	if _, err := SetPath([]byte(`{"message":"str"}`), []byte(`1`), "message", "role"); !errors.Is(err, ErrNotObject) {
		t.Errorf("SetPath through string: %v", err)
	}
	if _, err := SetPath([]byte(`{"a":1}`), []byte(`1`), "message", "role"); !errors.Is(err, ErrNotObject) {
		t.Errorf("SetPath through missing: %v", err)
	}
}

func TestDelete(t *testing.T) {
	cases := []struct{ line, key, want string }{
		{`{"a":1,"b":2,"c":3}`, "a", `{"b":2,"c":3}`},
		{`{"a":1,"b":2,"c":3}`, "b", `{"a":1,"c":3}`},
		{`{"a":1,"b":2,"c":3}`, "c", `{"a":1,"b":2}`},
		{`{"a":1}`, "a", `{}`},
		{"{ \"a\" : 1 , \"b\" : 2 }\n", "b", "{ \"a\" : 1 }\n"},
		{"{ \"a\" : 1 , \"b\" : 2 }\n", "a", "{ \"b\" : 2 }\n"},
		{`{"a":1,"b":2,"a":3,"c":4}`, "a", `{"b":2,"c":4}`},
		{`{"a":1,"a":2}`, "a", `{}`},
		{`{"x":{"a":1},"a":2}`, "a", `{"x":{"a":1}}`},
	}
	for _, c := range cases {
		got, ok, err := Delete([]byte(c.line), c.key)
		if err != nil || !ok || string(got) != c.want {
			t.Errorf("Delete(%q,%q) = %q,%v,%v want %q", c.line, c.key, got, ok, err, c.want)
		}
		if !json.Valid(got) {
			t.Errorf("Delete produced invalid JSON %q", got)
		}
	}
	got, ok, err := Delete([]byte(`{"a":1}`), "zz")
	if err != nil || ok || string(got) != `{"a":1}` {
		t.Errorf("Delete absent = %q %v %v", got, ok, err)
	}
}

func TestErrors(t *testing.T) {
	for _, bad := range []string{``, `[]`, `42`, `"s"`, `{"a":}`, `{"a":1}{"b":2}`, `{"a":1`, "\ufeff{}", `null`} {
		if _, _, err := Get([]byte(bad), "a"); !errors.Is(err, ErrNotObject) {
			t.Errorf("Get(%q) err = %v", bad, err)
		}
		if _, err := Set([]byte(bad), "a", []byte("1")); !errors.Is(err, ErrNotObject) {
			t.Errorf("Set(%q) err = %v", bad, err)
		}
	}
	for _, bad := range []string{``, ` 1`, `{`, `nul`, `1 2`} {
		if _, err := Set([]byte(`{}`), "a", []byte(bad)); !errors.Is(err, ErrBadValue) {
			t.Errorf("Set value %q err = %v", bad, err)
		}
	}
}

// decode is the reference: encoding/json, last duplicate wins (like
// JSON.parse).
func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("result does not decode: %v\n%q", err, b)
	}
	return m
}

type kv struct{ k, v string }

func others(b []byte, key string) []kv {
	o, err := Parse(b)
	if err != nil {
		return nil
	}
	var out []kv
	for _, m := range o.Members {
		if m.Key != key {
			out = append(out, kv{string(b[m.KeyStart:m.KeyEnd]), string(b[m.ValueStart:m.ValEnd])})
		}
	}
	return out
}

func FuzzEdit(f *testing.F) {
	f.Add([]byte(tricky), "id", `"abcd1234"`)
	f.Add([]byte(`{"type":"message","message":{"role":"hookMessage"}}`), "message", `{"role":"custom"}`)
	f.Add([]byte(`{"a":1,"a":2}`), "a", `[1,{"}":"{"}]`)
	f.Add([]byte(`{}`), "version", `3`)
	f.Add([]byte(" { \"k\" :\t\"\\\"}\" }\r\n"), "k", `null`)
	f.Fuzz(func(t *testing.T, line []byte, key, val string) {
		if !utf8.ValidString(key) {
			t.Skip("keys are UTF-8 (an invalid key is encoded with U+FFFD)")
		}
		value := []byte(val)
		if checkValue(value) != nil {
			value = EncodeKey(val)
		}
		if _, err := Parse(line); err != nil {
			// Invalid input: every operation reports it and nothing panics.
			if _, err := Set(line, key, value); !errors.Is(err, ErrNotObject) {
				t.Fatalf("Set on invalid input: %v", err)
			}
			if _, _, err := Delete(line, key); !errors.Is(err, ErrNotObject) {
				t.Fatalf("Delete on invalid input: %v", err)
			}
			return
		}
		var vdec any
		json.Unmarshal(value, &vdec)
		orig := decode(t, line)

		set, err := Set(line, key, value)
		if err != nil {
			t.Fatal(err)
		}
		want := decode(t, line)
		want[key] = vdec
		if got := decode(t, set); !reflect.DeepEqual(got, want) {
			t.Fatalf("Set: got %v want %v\nin  %q\nout %q", got, want, line, set)
		}
		if !reflect.DeepEqual(others(line, key), others(set, key)) {
			t.Fatalf("Set changed other members:\nin  %q\nout %q", line, set)
		}
		if g, ok, _ := Get(set, key); !ok || string(g) != string(value) {
			t.Fatalf("Get after Set = %q", g)
		}

		// The Editor gives the same bytes as the functions, edit by edit.
		ed, err := NewEditor(line)
		if err != nil {
			t.Fatal(err)
		}
		if err := ed.Set(key, value); err != nil || string(ed.Bytes()) != string(set) {
			t.Fatalf("Editor.Set = %q, Set = %q (%v)", ed.Bytes(), set, err)
		}
		want2, _, _ := Delete(set, "x")
		ed.Delete("x")
		if string(ed.Bytes()) != string(want2) {
			t.Fatalf("Editor.Delete = %q, Delete = %q", ed.Bytes(), want2)
		}
		if g, ok := ed.Get(key); key != "x" && (!ok || string(g) != string(value)) {
			t.Fatalf("Editor.Get = %q %v", g, ok)
		}

		del, _, err := Delete(line, key)
		if err != nil {
			t.Fatal(err)
		}
		delete(orig, key)
		if got := decode(t, del); !reflect.DeepEqual(got, orig) {
			t.Fatalf("Delete: got %v want %v\nin  %q\nout %q", got, orig, line, del)
		}
		if !reflect.DeepEqual(others(line, key), others(del, key)) {
			t.Fatalf("Delete changed other members:\nin  %q\nout %q", line, del)
		}

		// Nested: set key2 inside the object value of key (if it is one).
		if raw, ok, _ := Get(line, key); ok && raw[0] == '{' {
			nested, err := SetPath(line, value, key, "k2")
			if err != nil {
				t.Fatal(err)
			}
			want := decode(t, line)
			inner := want[key].(map[string]any)
			inner["k2"] = vdec
			if got := decode(t, nested); !reflect.DeepEqual(got, want) {
				t.Fatalf("SetPath: got %v want %v", got, want)
			}
		}
	})
}
