// Command gen writes deterministic synthetic pi session data for benchmarks.
//
//	go run ./bench/gen -kind pi -size 1GB -out /tmp/x.jsonl
//	go run ./bench/gen -kind pihome -sessions 2000 -size 2GB -out DIR
//	go run ./bench/gen -kind tiny -lines 5000000 -out /tmp/tiny.jsonl   # pathological: 5M lines "{}"
//	go run ./bench/gen -kind longline -size 200MB -out /tmp/line.jsonl  # pathological: one 200 MB line
//
// kind pi writes one pi (v3) session file of about -size bytes: a valid
// header, then turns of user / assistant (thinking, text, toolCall) /
// toolResult messages chained by parentId, with model and thinking-level
// changes, labels, a session_info name, compactions (firstKeptEntryId on the
// current branch), branches (parentId pointing back to an earlier entry,
// followed by a branch_summary), about one line in 700 of 100–300 KB and two
// tool results of a few MB. About 1M entries per GB.
//
// kind pihome writes -sessions pi sessions totalling about -size bytes under
// DIR/.pi/agent/sessions/--<cwd>--/<ts>_<uuid>.jsonl for a dozen projects,
// with log-normal sizes, and sets each file's mtime to its last timestamp.
//
// The same -seed always produces the same bytes. Ids are unique.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	kind := flag.String("kind", "pi", "pi (one session file), pihome (a home with many sessions), tiny (a header and -lines lines \"{}\") or longline (a header, one user message line of -size bytes, a short reply)")
	lines := flag.Int("lines", 5_000_000, "number of \"{}\" lines (tiny)")
	sizeStr := flag.String("size", "1GB", "approximate total size (B, KB, MB, GB; powers of 1024)")
	out := flag.String("out", "", "output file (pi) or directory (pihome)")
	sessions := flag.Int("sessions", 2000, "number of sessions (pihome)")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	size, err := parseSize(*sizeStr)
	if err != nil || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: gen -kind pi|pihome -size N[KB|MB|GB] -out PATH [-sessions N] [-seed N]")
		os.Exit(2)
	}
	switch *kind {
	case "pi":
		err = writeSession(*out, size, *seed, "/home/bench/src/sessctl-bench", true)
	case "tiny":
		err = writeTiny(*out, *lines)
	case "longline":
		err = writeLongLine(*out, size)
	case "pihome":
		err = writeHome(*out, *sessions, size, *seed)
	default:
		err = fmt.Errorf("unknown -kind %q", *kind)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suf string
		m   int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(s, u.suf) {
			mult = u.m
			s = strings.TrimSuffix(s, u.suf)
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return int64(f * float64(mult)), nil
}

// ---- text pool ----

// pool is JSON-escaped text; bounds are the offsets where words start, so
// any [bounds[i], bounds[j]) slice is a valid JSON string body.
type textPool struct {
	b      []byte
	bounds []int
}

var vocabulary = []string{
	"the", "session", "file", "buffer", "index", "parent", "branch", "compaction", "token", "error",
	"func", "return", "err", "nil", "struct", "interface", "module", "build", "test", "grep",
	"main.go:42:", "if err != nil {", "}", "fmt.Println(x)", "ok", "FAIL", "PASS", "--- a/x.go", "+++ b/x.go",
	`\n`, `\n`, `\n`, `\t`, `\"quoted\"`, `\\`, "é", "日本語", "naïve", "→", "…",
}

func newPool(r *rand.Rand, n int) *textPool {
	p := &textPool{b: make([]byte, 0, n+64)}
	for len(p.b) < n {
		p.bounds = append(p.bounds, len(p.b))
		p.b = append(p.b, vocabulary[r.IntN(len(vocabulary))]...)
		p.b = append(p.b, ' ')
	}
	p.bounds = append(p.bounds, len(p.b))
	return p
}

// write appends about n bytes of escaped text to w.
func (p *textPool) write(w *bufio.Writer, r *rand.Rand, n int) int {
	written := 0
	for written < n {
		i := r.IntN(len(p.bounds) - 1)
		want := p.bounds[i] + (n - written)
		j := sort.SearchInts(p.bounds, want)
		if j >= len(p.bounds) {
			j = len(p.bounds) - 1
		}
		if j <= i {
			j = i + 1
		}
		k, _ := w.Write(p.b[p.bounds[i]:p.bounds[j]])
		written += k
	}
	return written
}

// ---- one session ----

type sessionGen struct {
	r     *rand.Rand
	w     *bufio.Writer
	pool  *textPool
	n     int64  // bytes written
	count uint32 // entries written (id counter)
	key   uint32
	ms    int64    // current time, ms since epoch
	path  []uint32 // recent ids on the current branch (the last is the leaf)
	model int
}

var models = []struct{ api, provider, model string }{
	{"anthropic-messages", "anthropic", "claude-sonnet-4-5"},
	{"openai-responses", "openai", "gpt-5.1-codex"},
	{"openai-completions", "openrouter", "qwen/qwen3-coder"},
}

// id returns the entry id for counter k: a bijection of k, so ids are unique.
func (g *sessionGen) id(k uint32) string {
	return fmt.Sprintf("%08x", (k*0x9E3779B1)^g.key)
}

func (g *sessionGen) ts() string {
	return time.UnixMilli(g.ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

func (g *sessionGen) tick(maxMs int) { g.ms += 1 + int64(g.r.IntN(maxMs)) }

// begin writes the common prefix of an entry and makes it the new leaf.
func (g *sessionGen) begin(typ string) {
	g.tick(20000)
	parent := "null"
	if len(g.path) > 0 {
		parent = `"` + g.id(g.path[len(g.path)-1]) + `"`
	}
	k := g.count
	g.count++
	g.printf(`{"type":"%s","id":"%s","parentId":%s,"timestamp":"%s"`, typ, g.id(k), parent, g.ts())
	g.path = append(g.path, k)
	if len(g.path) > 8192 {
		g.path = append(g.path[:0], g.path[4096:]...)
	}
}

func (g *sessionGen) printf(format string, a ...any) {
	k, _ := fmt.Fprintf(g.w, format, a...)
	g.n += int64(k)
}

func (g *sessionGen) str(s string) {
	k, _ := g.w.WriteString(s)
	g.n += int64(k)
}

func (g *sessionGen) text(n int) { g.n += int64(g.pool.write(g.w, g.r, n)) }

func (g *sessionGen) end() { g.str("}\n") }

func (g *sessionGen) toolID() string {
	return fmt.Sprintf("toolu_%016x%08x", g.r.Uint64(), g.r.Uint32())
}

func (g *sessionGen) user() {
	g.begin("message")
	g.str(`,"message":{"role":"user","content":[{"type":"text","text":"`)
	g.text(40 + g.r.IntN(600))
	g.printf(`"}],"timestamp":%d}`, g.ms)
	g.end()
}

func (g *sessionGen) assistant(toolCall string) {
	m := models[g.model]
	g.begin("message")
	g.str(`,"message":{"role":"assistant","content":[`)
	if g.r.IntN(3) > 0 {
		g.str(`{"type":"thinking","thinking":"`)
		g.text(50 + g.r.IntN(500))
		g.str(`","thinkingSignature":"P3cjZX4RjitAqFXAG+Y1vpTypR/VV5G2"},`)
	}
	g.str(`{"type":"text","text":"`)
	g.text(20 + g.r.IntN(400))
	g.str(`"}`)
	stop := "stop"
	if toolCall != "" {
		stop = "toolUse"
		g.printf(`,{"type":"toolCall","id":"%s","name":"bash","arguments":{"command":"go test ./... 2>&1 | tail -n %d"}}`, toolCall, 5+g.r.IntN(50))
	}
	in, outT, cr := 1000+g.r.IntN(40000), 50+g.r.IntN(3000), g.r.IntN(100000)
	g.printf(`],"api":"%s","provider":"%s","model":"%s","usage":{"input":%d,"output":%d,"cacheRead":%d,"cacheWrite":0,"totalTokens":%d,`+
		`"cost":{"input":%.6f,"output":%.6f,"cacheRead":%.6f,"cacheWrite":0,"total":%.6f}},"stopReason":"%s","timestamp":%d}`,
		m.api, m.provider, m.model, in, outT, cr, in+outT+cr, float64(in)*3e-6, float64(outT)*15e-6, float64(cr)*3e-7,
		float64(in)*3e-6+float64(outT)*15e-6+float64(cr)*3e-7, stop, g.ms)
	g.end()
}

func (g *sessionGen) toolResult(toolCall string, n int) {
	g.begin("message")
	g.printf(`,"message":{"role":"toolResult","toolCallId":"%s","toolName":"bash","content":[{"type":"text","text":"`, toolCall)
	g.text(n)
	g.printf(`"}],"isError":%v,"timestamp":%d}`, g.r.IntN(20) == 0, g.ms)
	g.end()
}

func (g *sessionGen) toolSize() int {
	switch p := g.r.IntN(700); {
	case p == 0:
		return 100<<10 + g.r.IntN(200<<10) // 100–300 KB line
	case p < 140:
		return 1000 + g.r.IntN(3500)
	default:
		return 30 + g.r.IntN(900)
	}
}

// turn writes one user prompt, a few tool round trips and a final answer.
func (g *sessionGen) turn(bigTool int) {
	g.user()
	n := g.r.IntN(4)
	if bigTool > 0 && n == 0 {
		n = 1
	}
	for i := 0; i < n; i++ {
		tc := g.toolID()
		g.assistant(tc)
		size := g.toolSize()
		if bigTool > 0 && i == 0 {
			size = bigTool
		}
		g.toolResult(tc, size)
	}
	g.assistant("")
}

func (g *sessionGen) occasional() {
	switch p := g.r.IntN(2000); {
	case p < 3:
		g.begin("model_change")
		g.model = g.r.IntN(len(models))
		g.printf(`,"provider":"%s","modelId":"%s"`, models[g.model].provider, models[g.model].model)
		g.end()
	case p < 6:
		g.begin("thinking_level_change")
		g.printf(`,"thinkingLevel":"%s"`, []string{"off", "low", "medium", "high"}[g.r.IntN(4)])
		g.end()
	case p < 14:
		target := g.path[g.r.IntN(len(g.path))]
		g.begin("label")
		g.printf(`,"targetId":"%s","label":"checkpoint-%d"`, g.id(target), g.count)
		g.end()
	case p < 16 && len(g.path) > 1200:
		// branch: go back to an earlier entry of the current branch
		back := 20 + g.r.IntN(1000)
		from := g.path[len(g.path)-1-back]
		g.path = g.path[:len(g.path)-back]
		g.begin("branch_summary")
		g.printf(`,"fromId":"%s","summary":"`, g.id(from))
		g.text(200 + g.r.IntN(800))
		g.str(`"`)
		g.end()
	case p < 17 && len(g.path) > 2500:
		kept := g.path[len(g.path)-1-g.r.IntN(2000)]
		g.begin("compaction")
		g.str(`,"summary":"`)
		g.text(1000 + g.r.IntN(4000))
		g.printf(`","firstKeptEntryId":"%s","tokensBefore":%d`, g.id(kept), 100000+g.r.IntN(80000))
		g.end()
	}
}

// generate writes a whole session of about size bytes.
func generate(w *bufio.Writer, size int64, seed uint64, cwd string, bigTools bool, pool *textPool) (lastMs int64, err error) {
	r := rand.New(rand.NewPCG(seed, seed^0x5e55c71))
	g := &sessionGen{r: r, w: w, pool: pool, key: r.Uint32(), model: 0}
	g.ms = time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC).UnixMilli() + int64(r.IntN(200*24*3600))*1000 + int64(r.IntN(1000))
	g.printf(`{"type":"session","version":3,"id":"%s","timestamp":"%s","cwd":"%s"}`+"\n", uuid7(r, g.ms), g.ts(), cwd)
	g.begin("model_change")
	g.printf(`,"provider":"%s","modelId":"%s"`, models[0].provider, models[0].model)
	g.end()
	named := false
	bigDone := 0
	for g.n < size {
		big := 0
		if bigTools && bigDone < 2 && g.n > size*int64(bigDone+1)/3 {
			big = 2<<20 + g.r.IntN(3<<20) // a tool result of a few MB
			bigDone++
		}
		g.turn(big)
		g.occasional()
		if !named && g.count > 6 {
			g.begin("session_info")
			g.printf(`,"name":"bench session %d"`, seed)
			g.end()
			named = true
		}
	}
	return g.ms, w.Flush()
}

func uuid7(r *rand.Rand, ms int64) string {
	return fmt.Sprintf("%08x-%04x-7%03x-%04x-%012x", uint32(ms>>16), uint16(ms), r.Uint32()&0xfff,
		0x8000|(r.Uint32()&0x3fff), r.Uint64()&0xffffffffffff)
}

func writeSession(path string, size int64, seed uint64, cwd string, bigTools bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	pool := newPool(rand.New(rand.NewPCG(seed, 99)), 8<<20)
	w := bufio.NewWriterSize(f, 1<<20)
	if _, err := generate(w, size, seed, cwd, bigTools, pool); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

var projects = []string{
	"/home/bench/src/sessctl", "/home/bench/src/api-server", "/home/bench/src/web/frontend", "/home/bench/work/infra",
	"/home/bench/work/data-pipeline", "/home/bench/notes", "/home/bench/src/go-tools", "/home/bench/src/rust-parser",
	"/home/bench/work/mobile-app", "/home/bench/scratch", "/tmp/experiment", "/home/bench/src/docs-site",
}

// writeHome writes n sessions under dir/.pi/agent/sessions.
func writeHome(dir string, n int, total int64, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 2000))
	pool := newPool(rand.New(rand.NewPCG(seed, 99)), 8<<20)
	weights := make([]float64, n)
	var sum float64
	for i := range weights {
		weights[i] = math.Exp(1.6 * r.NormFloat64())
		sum += weights[i]
	}
	base := filepath.Join(dir, ".pi", "agent", "sessions")
	for i := range n {
		cwd := projects[int(math.Abs(r.NormFloat64()*3))%len(projects)]
		size := max(int64(float64(total)*weights[i]/sum), 2<<10)
		sseed := seed*1_000_003 + uint64(i)
		folder := "--" + strings.NewReplacer("/", "-", "\\", "-", ":", "-").Replace(strings.TrimPrefix(cwd, "/")) + "--"
		if err := os.MkdirAll(filepath.Join(base, folder), 0o755); err != nil {
			return err
		}
		tmp := filepath.Join(base, folder, ".gen.tmp")
		f, err := os.Create(tmp)
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		lastMs, err := generate(w, size, sseed, cwd, size > 64<<20, pool)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		// name the file after the header (timestamp and id), as pi does
		id, ts, err := headerOf(tmp)
		if err != nil {
			return err
		}
		name := strings.NewReplacer(":", "-", ".", "-").Replace(ts) + "_" + id + ".jsonl"
		final := filepath.Join(base, folder, name)
		if err := os.Rename(tmp, final); err != nil {
			return err
		}
		mt := time.UnixMilli(lastMs)
		if err := os.Chtimes(final, mt, mt); err != nil {
			return err
		}
	}
	return nil
}

func headerOf(path string) (id, ts string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		return "", "", err
	}
	get := func(key string) string {
		k := `"` + key + `":"`
		i := strings.Index(line, k)
		if i < 0 {
			return ""
		}
		rest := line[i+len(k):]
		return rest[:strings.IndexByte(rest, '"')]
	}
	id, ts = get("id"), get("timestamp")
	if id == "" || ts == "" {
		return "", "", fmt.Errorf("%s: no header", path)
	}
	return id, ts, nil
}

const pathoHeader = `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/x"}` + "\n"

// writeTiny writes a header and n lines "{}" (objects without id or type:
// entries to pi, each its own root).
func writeTiny(path string, n int) error {
	return writeFile(path, func(w *bufio.Writer) {
		w.WriteString(pathoHeader)
		for i := 0; i < n; i++ {
			w.WriteString("{}\n")
		}
	})
}

// writeLongLine writes a header, one user message whose content is about
// size bytes (lines of 1,000 letters joined by an escaped newline), and a
// short assistant reply.
func writeLongLine(path string, size int64) error {
	return writeFile(path, func(w *bufio.Writer) {
		w.WriteString(pathoHeader)
		w.WriteString(`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"`)
		chunk := strings.Repeat("abcdefghij", 100) + `\n`
		for n := int64(0); n < size; n += int64(len(chunk)) {
			w.WriteString(chunk)
		}
		w.WriteString("\",\"timestamp\":1}}\n")
		w.WriteString(`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"p","model":"m","timestamp":2}}` + "\n")
	})
}

func writeFile(path string, fill func(w *bufio.Writer)) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	fill(w)
	if err := w.Flush(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}
