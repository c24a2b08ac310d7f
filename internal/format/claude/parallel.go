package claude

import (
	"io"

	"github.com/sessctl/sessctl/internal/jsonl"
	"github.com/sessctl/sessctl/internal/sessfmt"
	"github.com/valyala/fastjson"
)

// chunkSize is the parallel pass's chunk size: 1 MiB, not jsonl's 4 MiB
// default, so that the chunks in flight cost about what the serial reader
// did (a 200 MB transcript: 55 MB peak RSS with 1 MiB chunks, 85 MB with
// 4 MiB); lines longer than a chunk are rare (tool results of a few
// hundred KB are the long ones) and are read back.
const chunkSize = 1 << 20

// serialIndex turns the parallel index pass off; indexChunkSize and
// indexWorkers set its chunk size and workers (0: jsonl's defaults). Tests
// compare the passes.
var (
	serialIndex    = false
	indexChunkSize = chunkSize
	indexWorkers   = 0
)

// batchFacts is a batch's share of the parallel pass (jsonl.Batch.Aux):
// the facts of each of its records, worked out on the worker that
// validated the chunk, with their bytes and the worker's parser.
type batchFacts struct {
	facts []lineFacts
	arena factsArena
	p     fastjson.Parser
	ct    capTop
}

// readParallel indexes a file with jsonl.ReadParallel: the file is read
// once in chunks cut at line boundaries; GOMAXPROCS workers validate each
// chunk's lines and parse each object line to the few facts the index
// keeps (extract); the caller's goroutine folds them in file order (apply).
// No line is kept. A line longer than a chunk (validated as it is read)
// is read back by offset and parsed here: it is held once, as the serial
// reader holds it.
func (f *File) readParallel(r io.Reader) error {
	usage := f.usage != nil
	po := jsonl.ParallelOptions{
		Capture: topCapture, // the facts come from the validating scan's captures
		// A line longer than a chunk is read back (applyLong), not from its
		// captures: capture only its type, never its message (it can be
		// hundreds of MB).
		LongTop: 1,
		LongSub: 1,

		ChunkSize: indexChunkSize,
		Workers:   indexWorkers,
		Keep:      func(*jsonl.Record) bool { return false },
		Inspect: func(rec *jsonl.Record, b *jsonl.Batch) {
			bf, _ := b.Aux.(*batchFacts)
			if bf == nil {
				bf = &batchFacts{}
				b.Aux = bf
			}
			if len(b.Records) == 0 {
				bf.facts, bf.arena.b = bf.facts[:0], bf.arena.b[:0]
			}
			bf.facts = append(bf.facts, lineFacts{})
			lf := &bf.facts[len(bf.facts)-1]
			*lf = lineFacts{ts: noTS}
			if rec.Kind != jsonl.Object {
				return
			}
			bf.ct.raw, bf.ct.p = rec.Top, &bf.p
			extractCaptured(&bf.ct, lf, &bf.arena)
			for k := range rec.Top {
				rec.Top[k] = nil // not copied into the batch
			}
			if usage {
				// stats' event from a tree of its own (fastjson's Get
				// depends on what was asked of a tree before)
				if v, err := bf.p.ParseBytes(rec.Body()); err == nil {
					lf.usage, lf.hasUsage = claudeUsageEvent(v)
				}
			}
		},
	}
	var p fastjson.Parser
	return jsonl.ReadParallel(r, po, func(b *jsonl.Batch) error {
		bf, _ := b.Aux.(*batchFacts)
		for i := range b.Records {
			rec := &b.Records[i]
			if rec.Streamed {
				if err := f.applyLong(rec, &p); err != nil {
					return err
				}
				continue
			}
			var lf *lineFacts
			if rec.Kind == jsonl.Object {
				lf = &bf.facts[i]
			}
			f.apply(rec, lf)
		}
		return nil
	})
}

// freshUsageEvent is claudeUsageEvent of line body parsed anew: a tree
// others asked for members can answer differently (fastjson's Get matches
// stored keys until some lookup unescapes them).
func freshUsageEvent(body []byte) (sessfmt.UsageEvent, bool) {
	var p fastjson.Parser
	v, err := p.ParseBytes(body)
	if err != nil {
		return sessfmt.UsageEvent{}, false
	}
	return claudeUsageEvent(v)
}

// applyLong indexes a line longer than a chunk: an object line is read
// back and parsed; one longer than jsonl.LongLine is read elided (its
// long strings left out, never held) unless a fact the index keeps is
// one of them.
func (f *File) applyLong(rec *jsonl.Record, p *fastjson.Parser) error {
	if rec.Kind != jsonl.Object {
		f.apply(rec, nil)
		return nil
	}
	if rec.Len() > jsonl.LongLine && !keepLongLines {
		if ok, err := f.applyElided(rec, p); ok || err != nil {
			return err
		}
	}
	raw, err := jsonl.ReadLineAt(f.ra, rec.Offset, rec.Len())
	if err != nil {
		return err
	}
	rec.Raw = raw
	v, err := p.ParseBytes(rec.Body())
	lf := &f.facts
	*lf = lineFacts{ts: noTS}
	if err == nil {
		extract(v, &f.top, lf, nil)
		if f.usage != nil {
			lf.usage, lf.hasUsage = freshUsageEvent(rec.Body())
		}
	}
	f.apply(rec, lf)
	rec.Raw = nil
	return nil
}

// applyElided indexes an object line from its elided copy; false when a
// fact the index keeps is a left-out string (the line is then read whole).
// The copy is made by the views' Elider and kept for them (longLines.keep),
// so a view reads the line from it, not from the file again.
func (f *File) applyElided(rec *jsonl.Record, p *fastjson.Parser) (bool, error) {
	l := f.longs()
	small, body, err := f.elide(l.el, l.buf, rec.Offset, rec.Len(), rec.BOM)
	l.buf = small
	if err != nil {
		return false, err
	}
	v, err := p.ParseBytes(body)
	if err != nil {
		return false, nil
	}
	lf := &f.facts
	extract(v, &f.top, lf, nil)
	if f.usage != nil {
		lf.usage, lf.hasUsage = freshUsageEvent(body)
	}
	if factsElided(lf) {
		return false, nil
	}
	li := int32(len(f.lines)) // the line apply adds
	f.apply(rec, lf)
	l.keep(li, body)
	return true, nil
}

// factsElided reports whether a fact of lf is a placeholder.
func factsElided(lf *lineFacts) bool {
	for _, b := range [][]byte{lf.typ, lf.uuid, lf.parent, lf.lpar, lf.sessionID, lf.cwd, lf.gitBranch, lf.model,
		lf.sub, lf.msgID, lf.toolResID, lf.agentID, lf.leaf, lf.val} {
		if jsonl.HoldsBytes(b) {
			return true
		}
	}
	for _, b := range lf.toolUses {
		if jsonl.HoldsBytes(b) {
			return true
		}
	}
	if lf.hasUsage {
		u := &lf.usage
		if jsonl.Holds(u.Role) || jsonl.Holds(u.Model) || jsonl.Holds(u.Key) || jsonl.Holds(u.CostSource) {
			return true
		}
		for _, s := range u.Tools {
			if jsonl.Holds(s) {
				return true
			}
		}
	}
	return false
}
