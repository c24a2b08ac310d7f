package fsx

import "runtime"

// Home is the home folder as the agents' runtime finds it, read through
// getenv (the process environment, or a test's): Node's os.homedir()
// (libuv's uv_os_homedir) takes $HOME on Unix and %USERPROFILE% on
// Windows, where $HOME is usually unset (or set by a POSIX shell that Node
// does not consult). On Windows $HOME is taken only when USERPROFILE is
// unset. "" when neither is known.
func Home(getenv func(string) string) string {
	return home(runtime.GOOS, getenv)
}

func home(goos string, getenv func(string) string) string {
	if goos == "windows" {
		if h := getenv("USERPROFILE"); h != "" {
			return h
		}
	}
	return getenv("HOME")
}
