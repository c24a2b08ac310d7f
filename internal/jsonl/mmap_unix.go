//go:build linux || darwin || freebsd

package jsonl

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapBytes maps length bytes of f from offset (a multiple of the page
// size) read-only. Its pages are mapped as they are first read (Linux maps
// the cached pages around a faulting one, 64 KiB by default): not in the
// mmap call with MAP_POPULATE, which walks the mapping a page at a time and
// measured dearer (list of the 2,000 pi sessions, whose files of up to
// 8 MiB were populated: 0.1 CPU-s of 2.5 more with it).
func mapBytes(f *os.File, offset int64, length int) ([]byte, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var data []byte
	var merr error
	if err := rc.Control(func(fd uintptr) {
		data, merr = unix.Mmap(int(fd), offset, length, unix.PROT_READ, unix.MAP_SHARED)
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
