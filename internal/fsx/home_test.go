package fsx

import "testing"

func TestHome(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	both := env(map[string]string{"HOME": "/home/u", "USERPROFILE": `C:\Users\u`})
	cases := []struct {
		goos   string
		getenv func(string) string
		want   string
	}{
		{"linux", both, "/home/u"},
		{"darwin", env(map[string]string{"USERPROFILE": `C:\Users\u`}), ""},
		{"windows", both, `C:\Users\u`},
		{"windows", env(map[string]string{"HOME": "/c/Users/u"}), "/c/Users/u"},
		{"windows", env(nil), ""},
	}
	for _, c := range cases {
		if got := home(c.goos, c.getenv); got != c.want {
			t.Errorf("home(%s) = %q, want %q", c.goos, got, c.want)
		}
	}
}
