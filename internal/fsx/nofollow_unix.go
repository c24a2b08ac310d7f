//go:build unix

package fsx

import (
	"errors"
	"os"
	"runtime"
	"syscall"
)

// CheckNoFollow is for files opened with NoFollow; on Unix the open itself
// refused a symbolic link, so there is nothing left to check.
func CheckNoFollow(f *os.File) error { return nil }

// IsNoFollowErr reports whether err is what an open with NoFollow returns
// for a symbolic link: ELOOP, or EMLINK on FreeBSD and DragonFly, EFTYPE on
// NetBSD.
func IsNoFollowErr(err error) bool {
	switch {
	case errors.Is(err, syscall.ELOOP):
		return true
	case runtime.GOOS == "freebsd" || runtime.GOOS == "dragonfly":
		return errors.Is(err, syscall.EMLINK)
	case runtime.GOOS == "netbsd":
		return errors.Is(err, syscall.Errno(79)) // EFTYPE
	}
	return false
}
