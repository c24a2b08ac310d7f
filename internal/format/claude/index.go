// Package claude reads Claude Code session transcripts
// (~/.claude/projects/<encoded-cwd>/<session-uuid>.jsonl and their subagent
// files), read-only.
//
// Open makes one streaming pass over a transcript and keeps a small index per
// line (offset, length, line number, type, uuid, parentUuid,
// logicalParentUuid, isSidechain, message.id, timestamp, subtype and a few
// flags) plus the last value of the session metadata lines. Payloads are never
// kept: Chain decodes only the lines it returns, by ReadAt.
//
// The graph follows Claude Code's loader: user, assistant, attachment and
// system lines with a uuid are chain members; legacy progress lines are
// bridged over (a member whose parent is a progress line hangs on the
// nearest non-progress ancestor, in any file order); a duplicate uuid keeps
// its first position and takes the later value; assistant lines that share
// message.id are one turn. Leaf selection offers the loader's modes (see
// LeafMode) and reports when they disagree.
package claude

import (
	"fmt"
	"io"
	"math"
	"os"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/valyala/fastjson"
)

// Size thresholds Claude Code uses (bytes).
const (
	// PrecompactSkipBytes is the size above which Claude Code's loader drops
	// everything before the last compact boundary without a preserved
	// segment and walks the chain at byte level.
	PrecompactSkipBytes = 5 << 20
	// MaxRewriteBytes is the size above which Claude Code refuses full
	// rewrites, transcript sharing and (before 2.1.116) /branch.
	MaxRewriteBytes = 50 << 20
)

// Entry types with a meaning for the graph.
const (
	TypeUser       = "user"
	TypeAssistant  = "assistant"
	TypeAttachment = "attachment"
	TypeSystem     = "system"
	TypeProgress   = "progress"
	TypeSummary    = "summary"
	TypeLastPrompt = "last-prompt"
)

// SubtypeCompactBoundary is the system subtype of a compaction boundary.
const SubtypeCompactBoundary = "compact_boundary"

const noTS = math.MinInt64

// line flags
const (
	fSidechain uint16 = 1 << iota
	fMeta
	fCompactSummary
	fPreserved   // compact boundary with compactMetadata.preservedSegment
	fAPIError    // isApiErrorMessage or system api_error
	fToolUse     // assistant line with at least one tool_use block
	fToolResult  // user line with at least one tool_result block
	fAgentCall   // assistant line with a Task/Agent tool_use
	fHasUUID     // the line carries a non-empty uuid
	fHasParent   // parentUuid is a non-empty string
	fThinking    // assistant line whose blocks are all thinking
	fVisibleOnly // isVisibleInTranscriptOnly
)

// lineRec is the index of one physical line. It holds no payload.
type lineRec struct {
	off    int64
	ts     int64 // unix milliseconds or noTS
	n      int32 // bytes on disk (newline included) when it fits; see big
	ln     int32 // 1-based line number
	typ    uint16
	sub    uint16
	flags  uint16
	kind   jsonl.Kind
	uuid   int32 // id number or -1
	parent int32 // id number or -1
	lpar   int32 // logicalParentUuid id number or -1
	msgID  int32 // message.id number or -1
}

// Problem is one finding about a file, with a stable code.
type Problem struct {
	Code string `json:"code"`
	Line int    `json:"line,omitempty"`
	UUID string `json:"uuid,omitempty"`
	Msg  string `json:"message"`
}

// Problem codes (stable; check and --json consumers rely on them).
const (
	ProbTornTail        = "torn-tail"
	ProbNULRun          = "nul-run"
	ProbBOM             = "bom"
	ProbCRLF            = "crlf"
	ProbMalformed       = "malformed-line"
	ProbNonObject       = "non-object-line"
	ProbMissingUUID     = "missing-uuid"
	ProbDuplicateUUID   = "duplicate-uuid"
	ProbSelfParent      = "self-parent"
	ProbCycle           = "cycle"
	ProbDanglingParent  = "dangling-parent"
	ProbLegacyProgress  = "legacy-progress-in-chain"
	ProbProgressForward = "progress-bridge-forward" // parent progress line appears later in the file
	ProbLeafDisagree    = "leaf-mode-disagreement"
	ProbOver5MB         = "file-over-5mb"
	ProbOver50MB        = "file-over-50mb"
	ProbSummaryElse     = "summary-leaf-elsewhere"
	ProbSessionMismatch = "session-id-mismatch"
	ProbEmpty           = "no-messages"
	ProbMostOffPath     = "most-records-off-path" // warning: most conversation records are not on the resumed path
)

// Metadata holds the last value of each session metadata line (last one wins).
type Metadata struct {
	CustomTitle    string `json:"customTitle,omitempty"`
	HasCustomTitle bool   `json:"-"`
	AITitle        string `json:"aiTitle,omitempty"`
	LastPrompt     string `json:"lastPrompt,omitempty"`
	Tag            string `json:"tag,omitempty"`
	AgentName      string `json:"agentName,omitempty"`
	Mode           string `json:"mode,omitempty"`
	// Summaries maps a summary's leafUuid to its text (last one wins).
	Summaries map[string]string `json:"summaries,omitempty"`
	// Counts counts metadata lines by type (re-appends included).
	Counts map[string]int `json:"counts,omitempty"`

	// ContinuedIn is the continuedInSessionId of the last continued-in line.
	ContinuedIn string `json:"continuedIn,omitempty"`
	// RelocatedCwd is the relocatedCwd of the last relocated line.
	RelocatedCwd string `json:"relocatedCwd,omitempty"`

	lastSummary string // text of the last summary line with text
}

// recordedLeaf is the state the last-prompt lines leave behind.
type recordedLeaf struct {
	leaf     string
	explicit bool
	cleared  bool
	line     int
}

// File is the index of one transcript.
type File struct {
	Path string
	Size int64
	// ParentSession is, for a subagent transcript, the session transcript
	// it belongs to (see ParentSessionOf); "" otherwise.
	ParentSession string

	external map[int32]bool // id numbers of parents found in ParentSession

	ra      io.ReaderAt
	closer  io.Closer
	lines   []lineRec
	big     map[int32]int64 // line index -> length for lines over 2 GiB
	names   []string        // type/subtype names
	nameIdx map[string]uint16
	ids     idTable // uuids
	msgIDs  idTable // message.id values

	// graph over node numbers (one per distinct uuid of a chain member or
	// progress line, numbered in order of first occurrence)
	nodeOf   []int32 // id number -> node number or -1
	nFirst   []int32 // node -> line of first occurrence
	nLast    []int32 // node -> line of the value (last occurrence)
	member   []bool  // node is a chain member (not progress)
	parent   []int32 // node -> effective parent node (-1 none); progress bridged
	effPar   []int32 // node -> effective parent id number (-1 none); may dangle
	kidStart []int32 // CSR rows of children, in file order
	kidList  []int32
	inCycle  []bool
	cycles   [][]int32

	// relink state of the last compact boundary with a preserved segment
	relink *relinkState

	toolUse     map[string]int32 // tool_use id -> line (assistant)
	toolResHold map[int32]int32  // tool_result line -> line holding the tool_use
	agentTool   map[string]string
	pendingRes  []pendingResult

	Meta       Metadata
	recorded   recordedLeaf
	sessionIDs []string
	firstCwd   string
	gitBranch  string // last gitBranch of a message line
	model      string // model of the last assistant line (not synthetic)
	firstTS    int64
	lastTS     int64
	bom        bool
	sideOnly   bool
	top        top       // scratch for scan
	facts      lineFacts // scratch for scan
	// usage, when not nil, gathers the stats events of the file's lines
	// as it is indexed (OpenUsage).
	usage    *usageLog
	pparser  fastjson.Parser // for Preview (a File is not safe for concurrent use)
	long     *longLines      // reads lines longer than jsonl.LongLine (longline.go)
	skipLine int32           // line index before which the >5 MB loader parses nothing, or -1
	choice   *LeafChoice
	problems []Problem
	counts   map[string]int
}

type pendingResult struct {
	line int32
	id   string
}

// idTable interns strings to dense numbers.
type idTable struct {
	m map[string]int32
	s []string
}

func (t *idTable) intern(b []byte) int32 {
	if i, ok := t.m[string(b)]; ok {
		return i
	}
	if t.m == nil {
		t.m = make(map[string]int32)
	}
	s := string(b)
	i := int32(len(t.s))
	t.m[s] = i
	t.s = append(t.s, s)
	return i
}

func (t *idTable) lookup(s string) int32 {
	if i, ok := t.m[s]; ok {
		return i
	}
	return -1
}

func (t *idTable) str(i int32) string {
	if i < 0 {
		return ""
	}
	return t.s[i]
}

// Open indexes the transcript at path. The file stays open for Chain and
// friends until Close.
func Open(path string) (*File, error) { return openFile(path, false) }

// OpenUsage is Open that also gathers the stats events of the file's lines
// in the same pass (UsageEvents then reads the file no more).
func OpenUsage(path string) (*File, error) { return openFile(path, true) }

func openFile(path string, usage bool) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	if st.IsDir() {
		fh.Close()
		return nil, fmt.Errorf("%s is a directory", path)
	}
	f, err := read(fh, st.Size(), usage)
	if err != nil {
		fh.Close()
		return nil, err
	}
	f.Path = path
	f.ra = fh
	f.closer = fh
	f.checkSessionName()
	f.checkSideFiles()
	f.resolveSubagentParents()
	sortProblems(f.problems)
	return f, nil
}

// Read indexes a transcript from r (size bytes, used for size problems; pass
// -1 if unknown). If r is an io.ReaderAt, lines can be decoded later;
// otherwise only the index is available.
func Read(r io.Reader, size int64) (*File, error) { return read(r, size, false) }

func read(r io.Reader, size int64, usage bool) (*File, error) {
	f := &File{
		Size:     size,
		skipLine: -1,
		nameIdx:  map[string]uint16{},
		names:    []string{""},
		firstTS:  noTS,
		lastTS:   noTS,
		counts:   map[string]int{},
	}
	if ra, ok := r.(io.ReaderAt); ok {
		f.ra = ra
	}
	if usage {
		f.usage = &usageLog{}
	}
	hint := 64
	if size > 0 {
		hint = int(min(size/2048, 1<<24)) // about one record per 2 KB
		f.lines = make([]lineRec, 0, hint)
	}
	f.ids.m = make(map[string]int32, hint)
	if f.ra != nil && !serialIndex {
		if err := f.readParallel(r); err != nil {
			return nil, err
		}
	} else {
		rd := jsonl.NewReader(r)
		for rd.Next() {
			f.scan(rd.Record())
		}
		if err := rd.Err(); err != nil {
			return nil, err
		}
	}
	f.facts = lineFacts{}
	f.finish()
	return f, nil
}

// Close closes the underlying file (if Open opened it).
func (f *File) Close() error {
	if f.closer != nil {
		return f.closer.Close()
	}
	return nil
}

func (f *File) name(b []byte) uint16 {
	if len(b) == 0 {
		return 0
	}
	if i, ok := f.nameIdx[string(b)]; ok {
		return i
	}
	if len(f.names) >= math.MaxUint16 {
		return f.name([]byte("(other)"))
	}
	i := uint16(len(f.names))
	s := string(b)
	f.names = append(f.names, s)
	f.nameIdx[s] = i
	return i
}

func (f *File) addProblem(code string, line int, uuid, msg string, args ...any) {
	if len(args) > 0 {
		msg = fmt.Sprintf(msg, args...)
	}
	f.problems = append(f.problems, Problem{Code: code, Line: line, UUID: uuid, Msg: msg})
}
