package repair

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/sessctl/sessctl/internal/format/claude"
	"github.com/sessctl/sessctl/internal/fsx"
	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/problem"
	"github.com/sessctl/sessctl/internal/safewrite"
	"github.com/valyala/fastjson"
)

// noTS marks a line without a usable timestamp.
const noTS = int64(-1 << 63)

// claudeRepairWindow is the parent-repair window of Claude Code's loader: a
// record whose parent is missing hangs on the nearest record of the same
// isSidechain written at most this long before it.
const claudeRepairWindow = 5 * time.Second

// Claude repairs a Claude Code transcript.
//
// Repair changes only what check reports as a warning or an error on the
// file as it is (a record on a line repair itself had to salvage is judged
// on what repair made of it); the legacy progress bridge, which check notes
// as information only, is made only with Options.BridgeProgress.
//
// Damaged lines are handled as for pi (sidecar, NUL and BOM removal, glued
// objects split, a complete record after a torn fragment kept, a
// pretty-printed object rejoined). Then, on the record graph:
//   - a uuid written twice for the same record (same type, parentUuid and
//     isSidechain: a re-append, which Claude Code reads as an update that
//     keeps the first position) is left alone; a uuid shared by different
//     records is damage: every record but the last gets a fresh uuid, and
//     the references written after it and before the next record of that
//     uuid (parentUuid, logicalParentUuid, sourceToolAssistantUUID,
//     leafUuid, messageId) are pointed at it;
//   - a record whose parent is a legacy progress line written after it
//     (check's progress-bridge-forward warning) gets the nearest
//     non-progress ancestor as parentUuid (the loader's bridge); with
//     BridgeProgress every record hanging on a progress line does;
//   - self-parents and records whose parent is missing (through any
//     progress lines between, as the loader bridges them) hang on the nearest
//     earlier record (by timestamp) of the same isSidechain at most 5 s
//     before them, else on the previous record of the same isSidechain in
//     file order, else become a root; cycles are broken at the record whose
//     parent comes latest in the file, re-linked the same way;
//   - with CloseToolCalls, unanswered tool_use blocks of the conversation
//     Claude Code would resume get one synthetic user line of error
//     tool_results chained at the leaf.
func Claude(path string, opts Options) (*Result, error) {
	if err := recoverSidecar(path, opts); err != nil { // finish an interrupted repair first (write.go)
		return nil, err
	}
	snap, err := safewrite.Stat(path)
	if err != nil {
		return nil, err
	}
	res := &Result{Path: path, Format: "claude", DryRun: opts.DryRun, Fixes: []Fix{}, Remaining: []problem.Problem{}}
	fh, err := fsx.OpenRead(path) // shares delete access: the file is renamed over while open (Windows)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	p := &planner{opts: opts, path: path, res: res, fieldsFn: claudeFields, gluedRE: claudeGlued, shapeFn: isClaudeEntry}
	if err := p.scan(fh); err != nil {
		return nil, err
	}
	c := &claudePlan{p: p, external: map[string]bool{}}
	defer c.close()
	c.collectIDs()
	c.duplicates()
	if c.needsGate() {
		if err := c.loadGate(fh); err != nil {
			return nil, err
		}
	}
	c.bridge()
	c.relink()
	if opts.CloseToolCalls {
		if err := c.closeToolCalls(fh); err != nil {
			return nil, err
		}
	}
	if len(res.Fixes) == 0 {
		// nothing to change: what is left is what check reports
		chk, err := c.checked()
		if err != nil {
			return nil, err
		}
		pp, err := chk.PathProblems()
		if err != nil {
			return nil, err
		}
		res.Remaining = claude.ToProblems(append(chk.Problems(), pp...))
		return res, nil
	}
	res.Changed = true
	err = p.writeVerified(fh, snap, false, c.verify)
	res.Remaining = p.origNumbering(res.Remaining)
	return res, err
}

// checked returns check's reading of the file as it is (opened once).
func (c *claudePlan) checked() (*claude.File, error) {
	if c.chk == nil {
		f, err := claude.Open(c.p.path)
		if err != nil {
			return nil, err
		}
		c.chk = f
	}
	return c.chk, nil
}

func (c *claudePlan) close() {
	if c.chk != nil {
		c.chk.Close()
	}
}

// needsGate says whether a graph step has a candidate whose fix depends on
// what check reports: a record whose parent is missing (through progress
// lines or not), its own parent, or a legacy progress line (cycles are
// always errors).
func (c *claudePlan) needsGate() bool {
	g := c.graph()
	for k := range g.ids {
		v := g.value[k]
		if g.progress(k) || v.parent == "" {
			continue
		}
		pk, ok := g.byID[v.parent]
		if !ok || pk == k || g.progress(pk) {
			return true
		}
	}
	return false
}

// loadGate reads what check reports, by code and uuid: on the file as it is
// (as check opens it, beside its parent session for a subagent) when repair
// has changed nothing so far; otherwise on the content planned so far
// (records recovered from damaged lines, duplicate uuids renamed), which is
// what the graph steps build on.
func (c *claudePlan) loadGate(ra io.ReaderAt) error {
	var ps []claude.Problem
	if c.p.recovered() || len(c.p.res.Fixes) > 0 && c.p.edited() {
		var err error
		if ps, err = c.p.checkPlanned(ra); err != nil {
			return err
		}
	} else {
		chk, err := c.checked()
		if err != nil {
			return err
		}
		ps = chk.Problems()
	}
	c.flagged = flaggedUUIDs(ps)
	return nil
}

// edited says whether a planned line has field edits.
func (p *planner) edited() bool {
	for _, v := range p.lines {
		if len(v.edits) > 0 {
			return true
		}
	}
	return false
}

// recovered says whether the scan made records out of lines as they were
// not (split, salvaged, rejoined, NUL or BOM removed).
func (p *planner) recovered() bool {
	for _, v := range p.lines {
		if v.obj && v.bytes != nil {
			return true
		}
	}
	return false
}

// checkPlanned returns check's problems on the content planned so far,
// streamed through a pipe (nothing is written).
func (p *planner) checkPlanned(ra io.ReaderAt) ([]claude.Problem, error) {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(p.emit(pw, ra)) }()
	f, err := claude.Read(pr, -1)
	io.Copy(io.Discard, pr)
	pr.Close()
	if err != nil {
		return nil, err
	}
	return f.Problems(), nil
}

// verify re-reads repaired content: no error-severity problem may be left,
// but for the missing parents check resolves outside the file (it reported
// no fault with them, so repair left them as they are).
func (c *claudePlan) verify(r io.Reader) ([]string, []problem.Problem, error) {
	left, rest, err := verifyClaude(r)
	if err != nil || len(c.external) == 0 {
		return left, rest, err
	}
	left = left[:0]
	kept := rest[:0]
	for _, pr := range rest {
		if pr.Code == claude.ProbDanglingParent && c.external[pr.ID] {
			continue // check resolves it outside the file: not a problem
		}
		if pr.Severity == problem.Error {
			left = append(left, pr.String())
		}
		kept = append(kept, pr)
	}
	return left, kept, nil
}

// flaggedUUIDs indexes check's problems by code and record uuid.
func flaggedUUIDs(ps []claude.Problem) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, pr := range ps {
		if pr.UUID == "" {
			continue
		}
		if out[pr.Code] == nil {
			out[pr.Code] = map[string]bool{}
		}
		out[pr.Code][pr.UUID] = true
	}
	return out
}

// verifyClaude re-reads repaired content: no error-severity problem may be left.
func verifyClaude(r io.Reader) ([]string, []problem.Problem, error) {
	f, err := claude.Read(r, -1)
	if err != nil {
		return nil, nil, err
	}
	rest := claude.ToProblems(f.Problems())
	var left []string
	for _, pr := range rest {
		if pr.Severity == problem.Error {
			left = append(left, pr.String())
		}
	}
	return left, rest, nil
}

// A torn fragment may be followed by a complete record starting with one of
// these (transcript messages start with parentUuid, metadata with type).
var claudeGlued = regexp.MustCompile(`\{"(?:parentUuid|type)":`)

// isClaudeEntry says whether a value looks like a whole transcript line,
// not like a content block or nested message cut out of one.
func isClaudeEntry(v *fastjson.Value) bool {
	if v == nil || v.Type() != fastjson.TypeObject {
		return false
	}
	t := jsonl.Get(v, "type")
	if t == nil || t.Type() != fastjson.TypeString {
		return false
	}
	isStr := func(k string) bool { x := jsonl.Get(v, k); return x != nil && x.Type() == fastjson.TypeString }
	if isStr("sessionId") && (jsonl.Get(v, "parentUuid") != nil || isStr("uuid") || !isGraphType(string(t.GetStringBytes()))) {
		return true
	}
	switch string(t.GetStringBytes()) {
	case claude.TypeSummary:
		return isStr("leafUuid")
	case "file-history-snapshot":
		return isStr("messageId")
	}
	return false
}

// internType returns the common entry types without allocating.
func internType(b []byte) string {
	switch string(b) {
	case claude.TypeUser:
		return claude.TypeUser
	case claude.TypeAssistant:
		return claude.TypeAssistant
	case claude.TypeSystem:
		return claude.TypeSystem
	case claude.TypeAttachment:
		return claude.TypeAttachment
	case claude.TypeProgress:
		return claude.TypeProgress
	}
	return string(b)
}

func isGraphType(t string) bool {
	switch t {
	case claude.TypeUser, claude.TypeAssistant, claude.TypeAttachment, claude.TypeSystem, claude.TypeProgress:
		return true
	}
	return false
}

// claudeRefKeys are the fields that name another record by uuid.
var claudeRefKeys = []string{"logicalParentUuid", "sourceToolAssistantUUID", "leafUuid", "messageId"}

// claudeFields extracts what repair needs from a Claude Code line.
func claudeFields(v *fastjson.Value, line []byte) *vline {
	l := &vline{obj: true, ts: noTS}
	str := func(key string) (string, bool) {
		x := jsonl.Get(v, key)
		if x == nil || x.Type() != fastjson.TypeString {
			return "", false
		}
		return string(x.GetStringBytes()), true
	}
	if x := jsonl.Get(v, "type"); x != nil && x.Type() == fastjson.TypeString {
		l.typ = internType(x.GetStringBytes())
	}
	if u, ok := str("uuid"); ok && u != "" {
		l.id, l.hasID = u, true
	}
	l.parent, _ = str("parentUuid")
	if x := jsonl.Get(v, "isSidechain"); x != nil && x.Type() == fastjson.TypeTrue {
		l.side = true
	}
	if s, ok := str("timestamp"); ok {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			l.ts = t.UnixMilli()
		}
	}
	for _, k := range claudeRefKeys {
		if s, ok := str(k); ok && s != "" {
			if l.refs == nil {
				l.refs = map[string]string{}
			}
			l.refs[k] = s
		}
	}
	return l
}

// claudePlan holds the graph steps of a Claude Code repair.
type claudePlan struct {
	p *planner
	// flagged holds the records check reports (on the file as it is, or on
	// the content planned after damaged lines were handled), by problem
	// code and uuid; loaded only when a graph step needs it.
	flagged map[string]map[string]bool
	chk     *claude.File // check's reading of the file as it is, once opened
	// external holds the records whose parent is not in the file but that
	// check reports no fault with (it resolves them elsewhere).
	external map[string]bool
}

// reported says whether check reports code for the record of line v, so
// that repair may change it. A record repair renamed was not seen by check
// under that uuid: repair judges it on its own view.
func (c *claudePlan) reported(code string, v *vline) bool {
	if _, renamed := v.edits["uuid"]; renamed {
		return true
	}
	return c.flagged[code][v.id]
}

// graphLines are the lines that are records of the graph: user,
// assistant, attachment, system and progress lines with a uuid.
func (c *claudePlan) graphLines() []*vline {
	var out []*vline
	for _, v := range c.p.lines {
		if v.obj && v.hasID && isGraphType(v.typ) {
			out = append(out, v)
		}
	}
	return out
}

// collectIDs records every uuid-like value of the file so that fresh uuids
// never collide with one.
func (c *claudePlan) collectIDs() {
	for _, v := range c.p.lines {
		if v.hasID {
			c.p.ids[v.id] = true
		}
		if v.parent != "" {
			c.p.ids[v.parent] = true
		}
		for _, r := range v.refs {
			c.p.ids[r] = true
		}
	}
}

func (c *claudePlan) freshUUID() string {
	r := c.p.opts.Rand
	for {
		var u uuid.UUID
		var err error
		if r != nil {
			u, err = uuid.NewRandomFromReader(r)
		} else {
			u, err = uuid.NewRandom()
		}
		if err != nil {
			panic(err)
		}
		if s := u.String(); !c.p.ids[s] {
			c.p.ids[s] = true
			return s
		}
	}
}

// sameRecord says whether two lines with one uuid are the same record
// written twice.
func sameRecord(a, b *vline) bool {
	return a.typ == b.typ && a.parent == b.parent && a.side == b.side
}

// duplicates renames the uuids that different records share (see Claude).
func (c *claudePlan) duplicates() {
	p := c.p
	occ := map[string][]*vline{}
	var order []string // ids in order of first occurrence (deterministic fresh ids)
	for _, v := range c.graphLines() {
		if _, ok := occ[v.id]; !ok {
			order = append(order, v.id)
		}
		occ[v.id] = append(occ[v.id], v)
	}
	// name[v] is the uuid the occurrence v gets; only damaged ids appear.
	name := map[*vline]string{}
	damaged := map[string]bool{}
	for _, id := range order {
		vs := occ[id]
		if len(vs) < 2 {
			continue
		}
		var recs [][]*vline
		for i, v := range vs {
			if i == 0 || !sameRecord(vs[i-1], v) {
				recs = append(recs, nil)
			}
			recs[len(recs)-1] = append(recs[len(recs)-1], v)
		}
		if len(recs) < 2 {
			continue // one record written again: Claude Code's update, left alone
		}
		damaged[id] = true
		for k, rec := range recs {
			n := id
			if k < len(recs)-1 {
				n = c.freshUUID()
			}
			for _, v := range rec {
				name[v] = n
			}
		}
	}
	if len(damaged) == 0 {
		return
	}
	latest := map[string]string{} // damaged id -> name of its record written most recently
	for _, v := range p.lines {
		if !v.obj {
			continue
		}
		// references first: they mean records written before this line
		if v.parent != "" && damaged[v.parent] {
			if cur, ok := latest[v.parent]; ok && cur != v.parent {
				p.fix(Fix{Line: v.orig, Code: claude.ProbDuplicateUUID, Action: "relinked", ID: v.id,
					Detail: fmt.Sprintf("parentUuid %s → %s (the renamed earlier record it was written under)", v.parent, cur)})
				v.set("parentUuid", cur)
				v.parent = cur
			}
		}
		for _, k := range claudeRefKeys {
			ref, ok := v.refs[k]
			if !ok || !damaged[ref] {
				continue
			}
			if cur, ok := latest[ref]; ok && cur != ref {
				v.set(k, cur)
				v.refs[k] = cur
				p.fix(Fix{Line: v.orig, Code: claude.ProbDuplicateUUID, Action: "relinked", ID: v.id, Detail: fmt.Sprintf("%s %s → %s", k, ref, cur)})
			}
		}
		n, ok := name[v]
		if !ok {
			continue
		}
		old := v.id
		latest[old] = n
		if n != old {
			v.set("uuid", n)
			v.id = n
			p.fix(Fix{Line: v.orig, Code: claude.ProbDuplicateUUID, Action: "renamed-uuid", ID: n,
				Detail: fmt.Sprintf("uuid %s → %s (a different record later in the file keeps %s)", old, n, old)})
		}
	}
}

// cgraph is the record graph of the planned lines: one node per uuid, the
// value being the last occurrence (all occurrences are one record after
// duplicates).
type cgraph struct {
	ids   []string
	occ   [][]*vline
	byID  map[string]int
	value []*vline
}

func (c *claudePlan) graph() *cgraph {
	g := &cgraph{byID: map[string]int{}}
	for _, v := range c.graphLines() {
		k, ok := g.byID[v.id]
		if !ok {
			k = len(g.ids)
			g.byID[v.id] = k
			g.ids = append(g.ids, v.id)
			g.occ = append(g.occ, nil)
			g.value = append(g.value, nil)
		}
		g.occ[k] = append(g.occ[k], v)
		g.value[k] = v
	}
	return g
}

func (g *cgraph) progress(k int) bool { return g.value[k].typ == claude.TypeProgress }

// setParent sets parentUuid on every occurrence of node k ("" = null).
func (c *claudePlan) setParent(g *cgraph, k int, np string) {
	raw := "\x00null"
	if np != "" {
		raw = np
	}
	for _, v := range g.occ[k] {
		v.set("parentUuid", raw)
		v.parent = np
	}
}

// progressResolver returns a function giving, for a progress node, the
// nearest non-progress ancestor id its run of progress lines leads to ("":
// none, the run starts at a root or loops), as the loader bridges it.
func progressResolver(g *cgraph) func(k int) string {
	memo := map[int]string{}
	return func(k int) string {
		seen := map[int]bool{}
		var run []int
		out := ""
		for cur := k; ; {
			if r, ok := memo[cur]; ok {
				out = r
				break
			}
			if seen[cur] {
				out = "" // a progress cycle: no ancestor
				break
			}
			seen[cur] = true
			run = append(run, cur)
			par := g.value[cur].parent
			pk, ok := g.byID[par]
			if par == "" || !ok || !g.progress(pk) {
				out = par
				break
			}
			cur = pk
		}
		for _, r := range run {
			memo[r] = out
		}
		return out
	}
}

// bridge re-points records whose parent is a legacy progress line at the
// progress run's nearest non-progress ancestor, as the loader resolves it:
// with BridgeProgress all of them, otherwise only those check warns about
// (the progress line is written after the record).
func (c *claudePlan) bridge() {
	g := c.graph()
	resolve := progressResolver(g)
	at := make(map[*vline]int, len(c.p.lines))
	for i, v := range c.p.lines {
		at[v] = i
	}
	for k := range g.ids {
		if g.progress(k) {
			continue
		}
		v := g.value[k]
		pk, ok := g.byID[v.parent]
		if v.parent == "" || !ok || !g.progress(pk) {
			continue
		}
		code := claude.ProbLegacyProgress
		if at[g.occ[pk][0]] > at[v] { // written after the record (in the planned order: a split line keeps one number)
			code = claude.ProbProgressForward
		}
		// the legacy bridge is what the loader does anyway (check notes it
		// as info): only on request; a forward link is a warning
		if !c.p.opts.BridgeProgress && (code != claude.ProbProgressForward || !c.reported(code, v)) {
			continue
		}
		np := resolve(pk)
		if np != "" {
			if _, known := g.byID[np]; !known {
				continue // the progress run hangs on a missing record: relink's dangling parent
			}
		}
		old := v.parent
		c.setParent(g, k, np)
		detail := fmt.Sprintf("parentUuid %s → %s (the nearest non-progress ancestor of the progress line it hung on; the progress lines are kept)", old, np)
		if np == "" {
			detail = fmt.Sprintf("parentUuid %s → null (a root: the progress lines it hung on have no non-progress ancestor; they are kept)", old)
		}
		c.p.fix(Fix{Line: v.orig, Code: code, Action: "bridged", ID: v.id, Detail: detail})
	}
}

// relink gives self-parents, orphans and cycle members a parent that exists.
func (c *claudePlan) relink() {
	g := c.graph()
	// members only, in order of first occurrence
	var mem []int
	idx := map[int]int{} // node -> member index
	for k := range g.ids {
		if !g.progress(k) {
			idx[k] = len(mem)
			mem = append(mem, k)
		}
	}
	n := len(mem)
	if n == 0 {
		return
	}
	resolve := progressResolver(g)
	parent := make([]int, n) // -1 none, -2 missing
	for i, k := range mem {
		par := g.value[k].parent
		if pk, ok := g.byID[par]; ok && g.progress(pk) {
			par = resolve(pk) // the loader's bridge
		}
		switch pk, ok := g.byID[par]; {
		case par == "":
			parent[i] = -1
		case !ok || g.progress(pk):
			parent[i] = -2
		default:
			parent[i] = idx[pk]
		}
		// check reports on the file as it is: a record it finds no fault
		// with is left as it is (a compaction subagent's parents live in
		// its parent session, for one)
		switch {
		case parent[i] == -2 && !c.reported(claude.ProbDanglingParent, g.value[k]):
			parent[i] = -1
			c.external[g.ids[k]] = true
		case parent[i] == i && !c.reported(claude.ProbSelfParent, g.value[k]):
			parent[i] = -1
		}
	}
	kids := make([][]int, n)
	for i, q := range parent {
		if q >= 0 && q != i {
			kids[q] = append(kids[q], i)
		}
	}
	below := func(i int) map[int]bool { // i and its descendants
		out := map[int]bool{i: true}
		queue := []int{i}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, y := range kids[x] {
				if !out[y] {
					out[y] = true
					queue = append(queue, y)
				}
			}
		}
		return out
	}
	// members with a timestamp, by timestamp (stable: file order among equals)
	byTS := make([]int, 0, n)
	for i, k := range mem {
		if g.value[k].ts != noTS {
			byTS = append(byTS, i)
		}
	}
	sort.SliceStable(byTS, func(a, b int) bool { return g.value[mem[byTS[a]]].ts < g.value[mem[byTS[b]]].ts })
	win := claudeRepairWindow.Milliseconds()
	target := func(i int) (int, string) {
		v := g.value[mem[i]]
		excl := below(i)
		if v.ts != noTS {
			at := sort.Search(len(byTS), func(j int) bool { return g.value[mem[byTS[j]]].ts > v.ts })
			for at > 0 {
				at--
				j := byTS[at]
				w := g.value[mem[j]]
				if v.ts-w.ts > win {
					break
				}
				if !excl[j] && w.side == v.side {
					return j, "now the nearest record of the same isSidechain written at most 5 s before it, as Claude Code's loader re-attaches it"
				}
			}
		}
		for j := i - 1; j >= 0; j-- {
			if !excl[j] && g.value[mem[j]].side == v.side {
				return j, "now the previous record of the same isSidechain in file order"
			}
		}
		return -1, "no earlier record of the same isSidechain to hang it on, so it becomes a root"
	}
	set := func(i, j int, code, why string) {
		k := mem[i]
		v := g.value[k]
		old := v.parent
		if q := parent[i]; q >= 0 && q != i {
			for x, y := range kids[q] {
				if y == i {
					kids[q] = append(kids[q][:x:x], kids[q][x+1:]...)
					break
				}
			}
		}
		parent[i] = j
		np := ""
		if j >= 0 {
			np = g.ids[mem[j]]
			kids[j] = append(kids[j], i)
		}
		c.setParent(g, k, np)
		to := np
		if to == "" {
			to = "null"
		}
		c.p.fix(Fix{Line: v.orig, Code: code, Action: "relinked", ID: v.id, Detail: fmt.Sprintf("parentUuid %s → %s (%s)", old, to, why)})
	}
	for i := range mem {
		switch parent[i] {
		case i:
			j, why := target(i)
			set(i, j, claude.ProbSelfParent, "was its own parent; "+why)
		case -2:
			j, why := target(i)
			set(i, j, claude.ProbDanglingParent, "parent not in the file; "+why)
		}
	}
	parentOf := func(i int) int {
		if parent[i] == i {
			return -1
		}
		return parent[i]
	}
	for guard := 0; guard <= n; guard++ {
		cyc := findCycle(n, parentOf)
		if cyc == nil {
			return
		}
		pick, latest := cyc[0], -1
		for _, i := range cyc {
			if q := parent[i]; g.occ[mem[q]][0].orig > latest {
				pick, latest = i, g.occ[mem[q]][0].orig
			}
		}
		j, why := target(pick)
		set(pick, j, claude.ProbCycle, "broke a parent cycle at the record whose parent comes latest in the file; "+why)
	}
}

// claudeToolLine is the synthetic user line --close-tool-calls appends;
// parentUuid comes first, as in every line Claude Code writes.
type claudeToolLine struct {
	ParentUUID  string            `json:"parentUuid"`
	IsSidechain bool              `json:"isSidechain"`
	UserType    string            `json:"userType,omitempty"`
	Cwd         string            `json:"cwd,omitempty"`
	SessionID   string            `json:"sessionId"`
	Version     string            `json:"version,omitempty"`
	GitBranch   string            `json:"gitBranch,omitempty"`
	AgentID     string            `json:"agentId,omitempty"`
	Type        string            `json:"type"`
	Message     claudeToolMessage `json:"message"`
	UUID        string            `json:"uuid"`
	Timestamp   string            `json:"timestamp"`
}

type claudeToolMessage struct {
	Role    string             `json:"role"`
	Content []claudeToolResult `json:"content"`
}

type claudeToolResult struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	IsError   bool   `json:"is_error"`
}

// closeToolCalls appends one user line with an error tool_result for each
// tool_use left without a result on the conversation Claude Code would
// resume (the last-prompt leaf, as check), chained at that leaf.
func (c *claudePlan) closeToolCalls(ra io.ReaderAt) error {
	p := c.p
	src := p.path
	if len(p.res.Fixes) > 0 {
		// analyse the planned content: written beside the file under
		// safewrite's temp prefix and removed at once
		tmp, err := safewrite.TempFile(p.path) // pid-named: a killed run's is removed later
		if err != nil {
			return err
		}
		defer os.Remove(tmp.Name())
		err = p.emit(tmp, ra)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		src = tmp.Name()
	}
	f, err := claude.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	leaf, err := f.Leaf(claude.LeafLastPrompt)
	if err != nil || leaf == "" {
		return err
	}
	if f.LeafModes().Source == "explicit" {
		// a last-prompt line pins the leaf: a line chained below it would
		// not be resumed (and a second run would add another)
		return nil
	}
	path, err := f.Walk(leaf, false)
	if err != nil {
		return err
	}
	type call struct{ id, name string }
	var calls []call
	seen := map[string]bool{}
	answered := map[string]bool{}
	err = f.EachTurn(path, func(t *claude.Turn) error {
		for _, b := range t.Blocks {
			switch b.Type {
			case "tool_use":
				if b.ID != "" && !seen[b.ID] {
					seen[b.ID] = true
					calls = append(calls, call{b.ID, b.Name})
				}
			case "tool_result":
				answered[b.ToolUseID] = true
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	var open []call
	for _, cl := range calls {
		if !answered[cl.id] {
			open = append(open, cl)
		}
	}
	if len(open) == 0 {
		return nil
	}
	var leafRaw []byte
	uu, lines := path.UUIDs(f), path.Lines(f)
	for i, u := range uu {
		if u == leaf {
			if leafRaw, err = f.RawLine(lines[i]); err != nil {
				return err
			}
		}
	}
	get := func(k string) string {
		v, _ := jsonl.Field(leafRaw, k)
		s, _ := jsonl.String(v)
		return s
	}
	side, _ := jsonl.Field(leafRaw, "isSidechain")
	now := p.opts.now().UTC()
	line := claudeToolLine{
		ParentUUID: leaf, IsSidechain: jsonl.Truthy(side), UserType: get("userType"), Cwd: get("cwd"),
		SessionID: get("sessionId"), Version: get("version"), GitBranch: get("gitBranch"), AgentID: get("agentId"),
		Type: claude.TypeUser, Message: claudeToolMessage{Role: "user"},
		UUID: c.freshUUID(), Timestamp: now.Format("2006-01-02T15:04:05.000Z"),
	}
	if line.SessionID == "" {
		line.SessionID = strings.TrimSuffix(filepath.Base(p.path), ".jsonl")
	}
	for _, cl := range open {
		line.Message.Content = append(line.Message.Content, claudeToolResult{Type: "tool_result", ToolUseID: cl.id, Content: ClosedToolCallText, IsError: true})
		p.fix(Fix{Code: claude.ProbUnpairedToolUse, Action: "closed-tool-call", ID: line.UUID,
			Detail: fmt.Sprintf("appended an error tool_result for tool_use %s (%s)", cl.id, cl.name)})
	}
	b, err := json.Marshal(line)
	if err != nil {
		return err
	}
	p.lines = append(p.lines, &vline{bytes: b, obj: true, typ: claude.TypeUser, id: line.UUID, hasID: true, parent: leaf, ts: now.UnixMilli()})
	return nil
}
