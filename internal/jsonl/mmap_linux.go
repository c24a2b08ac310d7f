package jsonl

import "golang.org/x/sys/unix"

// mapPopulate maps a small file's pages in the mmap call, instead of one
// page fault per 16 pages as they are read.
const mapPopulate = unix.MAP_POPULATE
