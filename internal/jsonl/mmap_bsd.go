//go:build darwin || freebsd

package jsonl

// mapPopulate: no such flag; pages are mapped as they are read.
const mapPopulate = 0
