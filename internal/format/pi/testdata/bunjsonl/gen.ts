// Differential fixtures for sessctl's omp value scanner (omp_read.go).
//
// Generates random JSONL-ish texts from pieces that occur in damaged session
// files (pretty-printed objects, glued objects, garbage, torn records, blank
// and CRLF lines, non-object values, non-ASCII text) and records what Bun's
// JSONL.parseChunk returns when driven by oh-my-pi's lenient loop
// (testdata/omp/parity/SPEC.md §2.2). Output: cases.json, read by
// TestValueScannerMatchesBun. Deterministic (seeded PRNG).
//
// Run with Bun 1.4.5 (npm package bun@1.4.5, see testdata/omp/parity/README.md):
//   bun gen.ts > cases.json

let seed = 20261122;
function rnd(n: number): number {
	// xorshift32
	seed ^= seed << 13; seed >>>= 0;
	seed ^= seed >>> 17;
	seed ^= seed << 5; seed >>>= 0;
	return seed % n;
}
const pick = <T>(xs: T[]): T => xs[rnd(xs.length)];

function obj(i: number): Record<string, unknown> {
	return { type: "message", id: `e${i}`, parentId: i > 0 ? `e${i - 1}` : null, message: { role: pick(["user", "assistant"]), content: pick(["hi", "héllo ✓ 😀", "a\u2028b", "tab\tx"]) } };
}

function piece(i: number): string[] {
	const o = obj(i);
	switch (rnd(16)) {
		case 0: case 1: case 2: case 3: case 4:
			return [JSON.stringify(o)];
		case 5: return JSON.stringify(o, null, pick([1, 2, "\t"])).split("\n");
		case 6: return [JSON.stringify(o) + JSON.stringify(obj(i + 1000))];
		case 7: return [JSON.stringify(o) + pick([" garbage", " ,", "\f", " \u00a0", "  ", "\r", " {}"])];
		case 8: return [pick(["not json", "}", "]", ",", ' "y": 1', '{"type":"x",', "{", "[", '"unterminated'])];
		case 9: return [pick(["42", '"str"', "[1,2]", "true", "null", "-0.5e3", "{}"])];
		case 10: return [pick(["", "  ", "\t", "\r"])];
		case 11: { // pretty object with a line removed
			const ls = JSON.stringify(o, null, 2).split("\n");
			ls.splice(1 + rnd(Math.max(1, ls.length - 2)), 1);
			return ls;
		}
		case 12: { // torn record
			const s = JSON.stringify(o);
			return [s.slice(0, 1 + rnd(s.length - 1))];
		}
		case 13: return ["  " + JSON.stringify(o) + "  "];
		case 14: return [JSON.stringify(o) + "\r"];
		default: return [JSON.stringify({ type: "custom", id: `c${i}`, data: { nested: [1, { a: "b" }] } })];
	}
}

function lenient(text: string): { values: unknown[]; malformed: number } {
	const values: unknown[] = [];
	let malformed = 0;
	let rest = text;
	while (rest.length > 0) {
		const r = Bun.JSONL.parseChunk(rest);
		for (const v of r.values) values.push(v);
		if (r.error) {
			const nl = rest.indexOf("\n", r.read);
			const seg = rest.slice(r.read, nl === -1 ? rest.length : nl);
			if (seg.trim() !== "") malformed++;
			if (nl === -1) break;
			rest = rest.slice(nl + 1);
			continue;
		}
		if (r.read === 0) {
			if (rest.trim() !== "") malformed++;
			break;
		}
		rest = rest.slice(r.read);
		if (r.done) break;
	}
	return { values, malformed };
}

const cases: { input: string; values: string[]; malformed: number }[] = [];
const total = Number(process.env.CASES ?? 400);
for (let c = 0; c < total; c++) {
	const lines: string[] = [];
	const n = 1 + rnd(8);
	for (let i = 0; i < n; i++) lines.push(...piece(c * 100 + i));
	let text = lines.join(rnd(4) === 0 ? "\r\n" : "\n");
	if (rnd(3) !== 0) text += "\n";
	const { values, malformed } = lenient(text);
	cases.push({ input: text, values: values.map(v => JSON.stringify(v)), malformed });
}
// Known divergences (see TestValueScannerMatchesBun): a value spanning lines
// that breaks in a last line without newline, where Bun waits for more data
// and drops everything from the value's first line (the first and last
// inputs), next to similar inputs where Bun reports the error.
for (const text of ['{"a":1}\n{"type":"x",\n-0.5e3', '{\n "a": 1,\n "b"\n}\ntrue', '{"a":1}\n{"b":\r\n42', '{"type":"x",\n{"a":1}', '{"type":\r\n{"id":"e1"}\r\n{']) {
	const { values, malformed } = lenient(text);
	cases.push({ input: text, values: values.map(v => JSON.stringify(v)), malformed });
}
console.log(JSON.stringify({ generator: `gen.ts, Bun ${Bun.version}`, cases }, null, 1));
