//go:build linux || darwin || freebsd

package jsonl

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapBytes maps length bytes of f from offset (a multiple of the page
// size) read-only, the first populate bytes' pages at once where the
// system can (Linux: the whole mapping, when populate covers it).
func mapBytes(f *os.File, offset int64, length, populate int) ([]byte, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var data []byte
	var merr error
	flags := unix.MAP_SHARED
	if populate >= length {
		flags |= mapPopulate
	}
	if err := rc.Control(func(fd uintptr) {
		data, merr = unix.Mmap(int(fd), offset, length, unix.PROT_READ, flags)
	}); err != nil {
		return nil, err
	}
	return data, merr
}

// unmapBytes undoes mapBytes.
func unmapBytes(b []byte) { _ = unix.Munmap(b) }

// dropPages tells the system the pages of b (whole pages, within a
// mapping) are not needed now: they leave the process's resident set, and
// a later access maps them again from the file.
func dropPages(b []byte) { _ = unix.Madvise(b, unix.MADV_DONTNEED) }

// canMap: mappings are tried on 64-bit systems only (a session file may be
// larger than a 32-bit address space).
const canMap = unsafe.Sizeof(uintptr(0)) == 8
