package pi

import (
	"sync"

	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/sessctl/sessctl/internal/tree"
)

// OpenForList opens the pi-family file at path as the registry's pi format
// opens ref for check (sessfmt.OpenOptions{Check: true}) and computes list's
// summary (ReadListInfo) in the same parallel pass: one read of the file
// gives the index, check's facts and the listing. li is nil when that pass
// cannot give the summary ReadListInfo would (a line longer than a chunk,
// an oh-my-pi or xcsh file whose lines their reader takes differently, a
// file not read by the parallel pass): the caller then calls ReadListInfo.
// li.Modified is zero when neither messages nor the header give a time.
func OpenForList(ref sessfmt.Ref, path string) (s *Session, li *ListInfo, err error) {
	f, err := Open(path, Options{Check: true, List: true})
	if err != nil {
		return nil, nil, err
	}
	s = &Session{ref: completeRef(ref, f, path), File: f, leaf: tree.None, metaPath: path}
	li = f.listInfo
	if li != nil && li.recheck && (li.Dialect == DialectOmp || li.Dialect == DialectXcsh) {
		li = nil
	}
	return s, li, nil
}

// DoneListing gives the buffers of a session OpenForList opened back for
// the next file, once its verdict (sessfmt.VerdictOf) is taken and nothing
// holds what it returned: s must not be used after.
func (s *Session) DoneListing() {
	if s != nil && s.File != nil {
		f := s.File
		f.releaseFacts()
		if f.Index != nil && f.Index.Len() <= maxListBufEntries && cap(f.Entries) <= 2*maxListBufEntries {
			listBufs.put(listBuf{f.Index, f.Entries})
		}
		f.Index, f.Entries = nil, nil
	}
}

// listBuf is the index and entry array of a listed file, kept for the
// next file OpenForList reads (newReader resets them): a listing indexes
// thousands of files, and each grew its own.
type listBuf struct {
	index   *tree.Index
	entries []Entry
}

// listBufs holds at most 4 of them. It gives back the one put last: its
// memory (the index's table above all, which each entry reads at a random
// place) is the likeliest to be still in the CPU's cache.
var listBufs bufStack

// bufStack is a last-in first-out pool of listBufs, safe for concurrent use.
type bufStack struct {
	mu    sync.Mutex
	items [4]listBuf
	n     int
}

// put keeps b unless the stack is full.
func (s *bufStack) put(b listBuf) {
	s.mu.Lock()
	if s.n < len(s.items) {
		s.items[s.n] = b
		s.n++
	}
	s.mu.Unlock()
}

// get returns the listBuf put last, or false when there is none.
func (s *bufStack) get() (listBuf, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		return listBuf{}, false
	}
	s.n--
	b := s.items[s.n]
	s.items[s.n] = listBuf{}
	return b, true
}

// maxListBufEntries bounds a kept index: one grown by a huge file is left
// to the collector.
const maxListBufEntries = 1 << 17
