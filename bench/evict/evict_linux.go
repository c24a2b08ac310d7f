package main

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dropCache asks the kernel to drop f's clean pages from the page cache.
func dropCache(f *os.File) error {
	return unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}

// resident returns how many of f's pages are in the page cache, and how
// many pages it has, by mapping it (no page is read) and asking mincore.
func resident(f *os.File) (n, total int, err error) {
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	if st.Size() == 0 {
		return 0, 0, nil
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0, 0, err
	}
	defer unix.Munmap(m)
	page := os.Getpagesize()
	vec := make([]byte, (len(m)+page-1)/page)
	// x/sys/unix has no Mincore wrapper on Linux: the raw system call.
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		return 0, 0, e
	}
	for _, v := range vec {
		n += int(v & 1)
	}
	return n, len(vec), nil
}
