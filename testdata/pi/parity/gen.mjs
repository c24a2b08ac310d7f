#!/usr/bin/env node
// Parity fixture generator for sessctl's pi (pi-mono) support.
//
// Runs pi's own published code (@mariozechner/pi-coding-agent, installed by
// the caller OUTSIDE the repository) to write session files and to compute
// what pi's loader and buildSessionContext return for them. The output is
// committed so that Go tests can compare against it without npm.
//
// This script installs nothing. Usage (see README.md next to this file):
//
//   node gen.mjs --pkg /tmp/pi-ref/node_modules/@mariozechner/pi-coding-agent \
//                --out testdata/pi/parity [--migrate testdata/pi/migrate] \
//                [--seed 20260522] [--only parity,damaged,migrate,listing]
//
// --out      parity dir; writes sessions/, expected/, damaged/, index.json
// --migrate  migration fixture dir (hand-written inputs are read from it,
//            pi's output is written next to them); default <out>/../migrate
// --only     comma list of parts to (re)generate; default all. "listing" alone
//            only recomputes listing-*.json from the files already present.
//
// Entry ids, session ids and entry timestamps come from pi (random / wall
// clock); message contents are chosen by a seeded PRNG.

import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { deflateSync } from "node:zlib";

// ---------------------------------------------------------------------------
// arguments and package loading
// ---------------------------------------------------------------------------

function parseArgs(argv) {
	const out = { seed: 20260522, only: "parity,damaged,migrate,listing" };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const next = () => {
			if (i + 1 >= argv.length) throw new Error(`missing value for ${a}`);
			return argv[++i];
		};
		if (a === "--pkg") out.pkg = next();
		else if (a === "--out") out.out = next();
		else if (a === "--migrate") out.migrate = next();
		else if (a === "--seed") out.seed = Number(next());
		else if (a === "--only") out.only = next();
		else if (a === "--allow-other-version") out.allowOther = true;
		else throw new Error(`unknown argument ${a}`);
	}
	if (!out.pkg || !out.out) {
		throw new Error("usage: node gen.mjs --pkg <dir of @mariozechner/pi-coding-agent> --out <parity dir>");
	}
	out.pkg = resolve(out.pkg);
	out.out = resolve(out.out);
	out.migrate = resolve(out.migrate ?? join(out.out, "..", "migrate"));
	out.parts = new Set(out.only.split(",").map((s) => s.trim()));
	return out;
}

const args = parseArgs(process.argv.slice(2));
const pkgJson = JSON.parse(readFileSync(join(args.pkg, "package.json"), "utf8"));
const PI_VERSION = `${pkgJson.name}@${pkgJson.version}`;
if (pkgJson.name !== "@mariozechner/pi-coding-agent" || pkgJson.version !== "0.73.1") {
	if (!args.allowOther) {
		throw new Error(`expected @mariozechner/pi-coding-agent@0.73.1, found ${PI_VERSION} (use --allow-other-version)`);
	}
}
const rootEntry = pkgJson.exports?.["."]?.import ?? pkgJson.main;
const pi = await import(pathToFileURL(join(args.pkg, rootEntry)).href);
// loadEntriesFromFile is exported by the module but not re-exported by the
// package root; import the very same module file so we share one instance.
const smModule = await import(pathToFileURL(join(args.pkg, "dist/core/session-manager.js")).href);
const { SessionManager, buildSessionContext, migrateSessionEntries, parseSessionEntries, CURRENT_SESSION_VERSION } = pi;
const { loadEntriesFromFile } = smModule;
if (smModule.SessionManager !== SessionManager || typeof loadEntriesFromFile !== "function") {
	throw new Error("dist/core/session-manager.js is not the module behind the package root");
}
if (CURRENT_SESSION_VERSION !== 3) throw new Error(`unexpected CURRENT_SESSION_VERSION ${CURRENT_SESSION_VERSION}`);

const TMP = mkdtempSync(join(tmpdir(), "pi-parity-"));
process.on("exit", () => rmSync(TMP, { recursive: true, force: true }));

// ---------------------------------------------------------------------------
// deterministic PRNG (mulberry32) and content helpers
// ---------------------------------------------------------------------------

function mulberry32(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

class Rng {
	constructor(seed) {
		this.next = mulberry32(seed);
	}
	float() {
		return this.next();
	}
	int(lo, hi) {
		// inclusive
		return lo + Math.floor(this.next() * (hi - lo + 1));
	}
	pick(arr) {
		return arr[Math.floor(this.next() * arr.length)];
	}
	chance(p) {
		return this.next() < p;
	}
	hex(n) {
		let s = "";
		for (let i = 0; i < n; i++) s += "0123456789abcdef"[this.int(0, 15)];
		return s;
	}
}

const WORDS = (
	"the a function file test build error fix refactor module import export config session branch tree " +
	"leaf parent child compaction summary model token context cache read write edit bash grep find list " +
	"should could would please now then why how what where when value string number array object map " +
	"check run fails passes green red yellow slow fast memory disk network retry timeout handler parser " +
	"lexer scanner buffer stream chunk line column offset index pointer slice vector struct interface"
).split(" ");

const UNICODE_SNIPPETS = [
	"日本語のテキストです。",
	"中文内容：会话管理器",
	"한국어 문장입니다",
	"emoji 🎉🚀👩‍💻👨‍👩‍👧‍👦 flags 🇯🇵🇺🇦",
	"RTL: שלום עולם و مرحبا بالعالم",
	"combining: e\u0301 a\u0308 n\u0303 Z\u0335\u0321\u0322a\u0336lgo",
	"math 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟘𝟙𝟚",
	"zero width: a\u200bb\u200cc\u200dd\ufeffe",
	"line sep:\u2028para sep:\u2029end",
	"bidi override: \u202eevil\u202c normal",
	"Ελληνικά Кириллица ไทย देवनागरी",
];

const ESCAPE_SNIPPETS = [
	"\u001b[31mred\u001b[0m normal",
	"bell\u0007ding",
	"OSC 8: \u001b]8;;https://example.com/x\u001b\\click me\u001b]8;;\u001b\\ done",
	"OSC 8 BEL: \u001b]8;;file:///etc/passwd\u0007passwd\u001b]8;;\u0007",
	"clear \u001b[2J\u001b[H home",
	"title \u001b]0;pwned\u0007 set",
	"clipboard \u001b]52;c;ZXZpbA==\u0007 copy",
	"C1 CSI \u009b31m red?\u009b0m",
	"carriage\roverwrite",
	"back\b\b\bspace and DEL\u007f",
	"NUL inside: a\u0000b",
	"tab\tand\u000bvt\u000cff",
	"DCS \u001bPq#0;2;0;0;0#0~~@@vv@@~~\u001b\\ sixel",
];

function words(rng, lo, hi) {
	const n = rng.int(lo, hi);
	const out = [];
	for (let i = 0; i < n; i++) out.push(rng.pick(WORDS));
	return out.join(" ");
}

function sentence(rng, lo = 4, hi = 14) {
	const s = words(rng, lo, hi);
	return s.charAt(0).toUpperCase() + s.slice(1) + rng.pick([".", "?", "!", "..."]);
}

function paragraph(rng, n) {
	const out = [];
	for (let i = 0; i < n; i++) out.push(sentence(rng));
	return out.join(" ");
}

// --- tiny PNG writer (pure JS, deterministic) ---
const CRC_TABLE = (() => {
	const t = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		t[n] = c >>> 0;
	}
	return t;
})();
function crc32(buf) {
	let c = 0xffffffff;
	for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type, data) {
	const len = Buffer.alloc(4);
	len.writeUInt32BE(data.length);
	const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(td));
	return Buffer.concat([len, td, crc]);
}
function tinyPng(rng, w = 2, h = 2) {
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(w, 0);
	ihdr.writeUInt32BE(h, 4);
	ihdr[8] = 8; // bit depth
	ihdr[9] = 2; // RGB
	const raw = [];
	for (let y = 0; y < h; y++) {
		raw.push(0);
		for (let x = 0; x < w * 3; x++) raw.push(rng.int(0, 255));
	}
	const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	return Buffer.concat([
		sig,
		pngChunk("IHDR", ihdr),
		pngChunk("IDAT", deflateSync(Buffer.from(raw))),
		pngChunk("IEND", Buffer.alloc(0)),
	]).toString("base64");
}

// ---------------------------------------------------------------------------
// message factories (shapes as in pi-ai / pi-coding-agent types)
// ---------------------------------------------------------------------------

const MODELS = [
	{ provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages" },
	{ provider: "openai", model: "gpt-5.1-codex", api: "openai-responses" },
	{ provider: "google", model: "gemini-2.5-pro", api: "google-generative-ai" },
	{ provider: "openrouter", model: "qwen/qwen3-coder", api: "openai-completions" },
	{ provider: "amazon-bedrock", model: "us.anthropic.claude-opus-4-1", api: "bedrock-converse-stream" },
];
const TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls"];

class Msgs {
	constructor(rng, start) {
		this.rng = rng;
		this.clock = start; // message timestamps (ms), independent of entry timestamps
		this.model = rng.pick(MODELS);
	}
	tick() {
		this.clock += this.rng.int(200, 90000);
		return this.clock;
	}
	usage() {
		const r = this.rng;
		const input = r.int(0, 40000);
		const output = r.int(1, 4000);
		const cacheRead = r.chance(0.5) ? r.int(0, 100000) : 0;
		const cacheWrite = r.chance(0.3) ? r.int(0, 20000) : 0;
		const cost = {
			input: (input * 3) / 1e6,
			output: (output * 15) / 1e6,
			cacheRead: (cacheRead * 0.3) / 1e6,
			cacheWrite: (cacheWrite * 3.75) / 1e6,
		};
		cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
		return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
	}
	user(content) {
		return { role: "user", content: content ?? sentence(this.rng), timestamp: this.tick() };
	}
	userBlocks(blocks) {
		return { role: "user", content: blocks, timestamp: this.tick() };
	}
	text(t) {
		return { type: "text", text: t };
	}
	image(w = 2, h = 2, mimeType = "image/png") {
		return { type: "image", data: tinyPng(this.rng, w, h), mimeType };
	}
	thinking(t, signed = true) {
		const b = { type: "thinking", thinking: t ?? paragraph(this.rng, 2) };
		if (signed) b.thinkingSignature = Buffer.from(this.rng.hex(48), "hex").toString("base64");
		return b;
	}
	toolCall(name, args) {
		return {
			type: "toolCall",
			id: `toolu_${this.rng.hex(24)}`,
			name: name ?? this.rng.pick(TOOLS),
			arguments: args ?? { path: `src/${this.rng.pick(WORDS)}.ts`, limit: this.rng.int(1, 400) },
		};
	}
	assistant(content, opts = {}) {
		const m = opts.model ?? this.model;
		if (typeof content === "string") content = [this.text(content)];
		const msg = {
			role: "assistant",
			content: content ?? [this.text(paragraph(this.rng, this.rng.int(1, 3)))],
			api: m.api,
			provider: m.provider,
			model: m.model,
			usage: this.usage(),
			stopReason: opts.stopReason ?? "stop",
			timestamp: this.tick(),
		};
		if (opts.errorMessage) msg.errorMessage = opts.errorMessage;
		if (opts.responseId) msg.responseId = opts.responseId;
		return msg;
	}
	toolResult(call, content, opts = {}) {
		const msg = {
			role: "toolResult",
			toolCallId: call.id,
			toolName: call.name,
			content: content ?? [this.text(paragraph(this.rng, 2))],
			isError: opts.isError ?? false,
			timestamp: this.tick(),
		};
		if ("details" in opts) msg.details = opts.details;
		return msg;
	}
	bash(opts = {}) {
		const msg = {
			role: "bashExecution",
			command: opts.command ?? `${this.rng.pick(["ls", "git status", "go test ./...", "make", "cat README.md"])}`,
			output: opts.output ?? words(this.rng, 3, 20),
			exitCode: "exitCode" in opts ? opts.exitCode : 0,
			cancelled: opts.cancelled ?? false,
			truncated: opts.truncated ?? false,
			timestamp: this.tick(),
		};
		if (opts.fullOutputPath) msg.fullOutputPath = opts.fullOutputPath;
		if ("excludeFromContext" in opts) msg.excludeFromContext = opts.excludeFromContext;
		return msg;
	}
}

// ---------------------------------------------------------------------------
// session building
// ---------------------------------------------------------------------------

// Build context helper for a scenario: wraps a SessionManager with
// convenience appends and records interesting leaves.
class Ctx {
	constructor(sm, rng, msgClockStart) {
		this.sm = sm;
		this.rng = rng;
		this.m = new Msgs(rng, msgClockStart);
		this.leaves = []; // {leaf, why}
	}
	leaf(id, why) {
		this.leaves.push({ leaf: id, why });
		return id;
	}
	u(content) {
		return this.sm.appendMessage(this.m.user(content));
	}
	a(content, opts) {
		return this.sm.appendMessage(this.m.assistant(content, opts));
	}
	turn(n = 1) {
		let last;
		for (let i = 0; i < n; i++) {
			this.u();
			last = this.a();
		}
		return last;
	}
	toolTurn(name, args, resultContent, resultOpts) {
		const call = this.m.toolCall(name, args);
		const aid = this.a([this.m.text(sentence(this.rng)), call], { stopReason: "toolUse" });
		const rid = this.sm.appendMessage(this.m.toolResult(call, resultContent, resultOpts));
		return { aid, rid, call };
	}
	ids() {
		return this.sm.getEntries().map((e) => e.id);
	}
}

function pad3(n) {
	return String(n).padStart(3, "0");
}

function writeJson(path, obj) {
	writeFileSync(path, `${JSON.stringify(obj)}\n`);
}

// Load a session file exactly the way SessionManager.open/setSessionFile do
// (loadEntriesFromFile, then migrations), and return the non-header entries.
function loadForContext(path) {
	const fileEntries = loadEntriesFromFile(path);
	migrateSessionEntries(fileEntries);
	return { fileEntries, entries: fileEntries.filter((e) => e.type !== "session") };
}

// Follow parent links like buildSessionContext does, but detect cycles.
function walkHasCycle(entries, leafId) {
	const byId = new Map();
	for (const e of entries) byId.set(e.id, e);
	let leaf = leafId ? byId.get(leafId) : undefined;
	if (!leaf) leaf = entries[entries.length - 1];
	const seen = new Set();
	let cur = leaf;
	while (cur) {
		if (seen.has(cur)) return true;
		seen.add(cur);
		cur = cur.parentId ? byId.get(cur.parentId) : undefined;
	}
	return false;
}

function contextCase(entries, leaf, why) {
	const c = { leaf };
	if (why) c.why = why;
	if (walkHasCycle(entries, leaf ?? undefined)) {
		c.hangs = true;
	} else {
		c.context = buildSessionContext(entries, leaf ?? undefined);
	}
	return c;
}

// Pick ≥3 extra leaves: scenario-specific ones first, then roots, compaction
// entries, label entries, branch tips, random interior entries.
function chooseLeaves(entries, scenarioLeaves, rng, want) {
	const chosen = [];
	const seen = new Set();
	const add = (leaf, why) => {
		if (seen.has(leaf)) return;
		seen.add(leaf);
		chosen.push({ leaf, why });
	};
	for (const l of scenarioLeaves) add(l.leaf, l.why);
	if (entries.length < 4) {
		for (const e of entries) add(e.id, "every entry (short session)");
		return chosen;
	}
	const ids = new Set(entries.map((e) => e.id));
	const hasChild = new Set(entries.map((e) => e.parentId));
	const last = entries[entries.length - 1].id;
	const pools = [
		[entries.filter((e) => e.parentId === null), "root"],
		[entries.filter((e) => e.type === "compaction"), "compaction entry"],
		[entries.filter((e) => e.type === "label"), "label entry"],
		[entries.filter((e) => e.type === "branch_summary"), "branch_summary entry"],
		[entries.filter((e) => !hasChild.has(e.id) && e.id !== last), "tip of another branch"],
		[entries.filter((e) => e.parentId !== null && !ids.has(e.parentId)), "orphan"],
	];
	for (const [pool, why] of pools) {
		if (chosen.length >= want) break;
		if (pool.length) {
			const e = pool[rng.int(0, pool.length - 1)];
			add(e.id, why);
		}
	}
	let guard = 0;
	while (chosen.length < want && guard++ < 200) {
		const e = entries[rng.int(0, entries.length - 1)];
		if (e.id !== last) add(e.id, "random entry");
	}
	return chosen;
}

function stringifyEq(a, b) {
	return JSON.stringify(a) === JSON.stringify(b);
}

// Replace the wall clock seen by pi (`new Date()` without arguments and
// Date.now()) while fn runs. nextMs() is called once per clock read. Used to
// give entries deterministic, varied timestamps (and, where wanted, identical
// or backwards-running ones). Dates built from arguments are untouched.
function withClock(nextMs, fn) {
	const RealDate = Date;
	class FakeDate extends RealDate {
		constructor(...a) {
			if (a.length === 0) super(nextMs());
			else super(...a);
		}
		static now() {
			return nextMs();
		}
	}
	globalThis.Date = FakeDate;
	try {
		return fn();
	} finally {
		globalThis.Date = RealDate;
	}
}

// Clock policies (opts.clock): "fake" (default) advances by a PRNG step per
// read, ~15% of reads repeat the previous millisecond; "frozen" never moves;
// "skew" sometimes jumps backwards; "real" uses the real wall clock.
function makeClock(kind, rng, start) {
	let t = start;
	if (kind === "frozen") return () => t;
	return () => {
		const r = rng.float();
		if (kind === "skew" && r < 0.25) t -= rng.int(1, 120000);
		else if (r < 0.15) t += 0;
		else if (r < 0.9) t += rng.int(1, 30000);
		else t += rng.int(30000, 900000);
		return t;
	};
}

const index = [];

function generateSession(num, name, desc, build, opts = {}) {
	const fileBase = `${pad3(num)}-${name}`;
	const rng = new Rng((args.seed ^ Math.imul(num + 1, 0x9e3779b1)) >>> 0);
	const dir = mkdtempSync(join(TMP, "s-"));
	const cwd = opts.cwd ?? `/home/dev/projects/${name}`;
	const clockKind = opts.clock ?? "fake";
	const clockRng = new Rng((args.seed ^ Math.imul(num + 7, 0x85ebca6b) ^ 0xc10c) >>> 0);
	const clockStart = Date.UTC(2026, 0, 1) + clockRng.int(0, 86400 * 300) * 1000 + clockRng.int(0, 999);
	const run = () => {
		const sm = SessionManager.create(cwd, dir);
		const ctx = new Ctx(sm, rng, clockStart + 500);
		build(ctx);
		return ctx;
	};
	const ctx = clockKind === "real" ? run() : withClock(makeClock(clockKind, clockRng, clockStart), run);
	const sm = ctx.sm;
	const src = sm.getSessionFile();
	if (!src || !existsSync(src)) throw new Error(`${fileBase}: pi did not write a file (no assistant message?)`);
	const dst = join(args.out, "sessions", `${fileBase}.jsonl`);
	copyFileSync(src, dst);

	// Sanity: the file holds exactly the in-memory entries.
	const { fileEntries, entries } = loadForContext(dst);
	if (fileEntries.length === 0 || fileEntries[0].type !== "session") throw new Error(`${fileBase}: bad header`);
	if (!stringifyEq(entries, sm.getEntries())) throw new Error(`${fileBase}: file entries differ from memory`);

	const leaves = chooseLeaves(entries, ctx.leaves, rng, opts.leaves ?? 4);
	const cases = [contextCase(entries, null, "default (no leaf argument: last entry in file)")];
	for (const l of leaves) cases.push(contextCase(entries, l.leaf, l.why));

	// Cross-check against SessionManager.open on a copy and against the
	// in-memory manager that wrote the file.
	const copy = join(mkdtempSync(join(TMP, "o-")), "copy.jsonl");
	copyFileSync(dst, copy);
	const reopened = SessionManager.open(copy, dirnameOf(copy));
	if (readFileSync(copy, "utf8") !== readFileSync(dst, "utf8")) throw new Error(`${fileBase}: open rewrote a valid v3 file`);
	if (!stringifyEq(reopened.buildSessionContext(), cases[0].context)) throw new Error(`${fileBase}: default ctx != open()`);
	for (const c of cases.slice(1)) {
		if (c.hangs) continue;
		if (!reopened.getEntry(c.leaf)) continue; // nonexistent-leaf cases
		reopened.branch(c.leaf);
		if (!stringifyEq(reopened.buildSessionContext(), c.context)) throw new Error(`${fileBase}: ctx(${c.leaf}) != open()+branch()`);
		sm.branch(c.leaf);
		if (!stringifyEq(sm.buildSessionContext(), c.context)) throw new Error(`${fileBase}: ctx(${c.leaf}) != in-memory`);
	}

	writeJson(join(args.out, "expected", `${fileBase}.json`), { file: `${fileBase}.jsonl`, cases });
	const timestamps = entries.map((e) => e.timestamp);
	index.push({
		name: fileBase,
		description: desc,
		entries: entries.length,
		roots: entries.filter((e) => e.parentId === null).length,
		types: [...new Set(entries.map((e) => (e.type === "message" ? `message:${e.message.role}` : e.type)))].sort(),
		max_same_timestamp: Math.max(...Object.values(countBy(timestamps))),
		cases: cases.length,
	});
	return { file: dst, entries };
}

function dirnameOf(p) {
	return resolve(p, "..");
}

function countBy(arr) {
	const m = {};
	for (const x of arr) m[x] = (m[x] ?? 0) + 1;
	return m;
}

// ---------------------------------------------------------------------------
// random session generator (mixed features, used for "mix" and "large")
// ---------------------------------------------------------------------------

function randomSession(ctx, nOps, w = {}) {
	const { sm, rng, m } = ctx;
	const weights = {
		turn: 30,
		tool: 10,
		bash: 4,
		branch: 9,
		reset: 1.5,
		compaction: 4,
		branchSummary: 3,
		label: 6,
		custom: 3,
		customMessage: 3,
		sessionInfo: 1.5,
		thinking: 2.5,
		model: 2.5,
		image: 2,
		...w,
	};
	const keys = Object.keys(weights);
	const total = keys.reduce((s, k) => s + weights[k], 0);
	const pickOp = () => {
		let x = rng.float() * total;
		for (const k of keys) {
			x -= weights[k];
			if (x < 0) return k;
		}
		return keys[keys.length - 1];
	};
	ctx.turn(1);
	for (let i = 0; i < nOps; i++) {
		const all = sm.getEntries();
		const pickEntry = () => all[rng.int(0, all.length - 1)];
		const op = pickOp();
		switch (op) {
			case "turn":
				ctx.u(rng.chance(0.15) ? [m.text(sentence(rng)), m.text(sentence(rng))] : sentence(rng));
				ctx.a(rng.chance(0.3) ? [m.thinking(sentence(rng)), m.text(sentence(rng))] : sentence(rng));
				break;
			case "tool": {
				const { call } = ctx.toolTurn(undefined, undefined, undefined, rng.chance(0.2) ? { isError: true } : {});
				ctx.a(`${call.name} done: ${words(rng, 2, 6)}`);
				break;
			}
			case "bash":
				sm.appendMessage(
					m.bash({ excludeFromContext: rng.chance(0.3) ? true : undefined, exitCode: rng.pick([0, 0, 1, 2]) }),
				);
				break;
			case "branch":
				sm.branch(pickEntry().id);
				break;
			case "reset":
				sm.resetLeaf();
				ctx.turn(1);
				break;
			case "compaction": {
				const path = sm.getBranch();
				let first;
				const r = rng.float();
				if (r < 0.7 && path.length) first = path[rng.int(0, path.length - 1)].id;
				else if (r < 0.8) first = pickEntry().id;
				else if (r < 0.88) first = (all.find((e) => e.type === "label") ?? pickEntry()).id;
				else if (r < 0.95) first = `dead${rng.hex(4)}`;
				else first = undefined;
				sm.appendCompaction(paragraph(rng, 2), first, rng.int(1000, 200000), rng.chance(0.3) ? { readFiles: ["a.ts"] } : undefined);
				break;
			}
			case "branchSummary": {
				const target = rng.chance(0.15) ? null : pickEntry().id;
				sm.branchWithSummary(target, rng.chance(0.2) ? "" : paragraph(rng, 1));
				break;
			}
			case "label": {
				const target = pickEntry().id;
				const r = rng.float();
				sm.appendLabelChange(target, r < 0.6 ? rng.pick(["checkpoint", "good", "bad", "✓ works", "todo"]) : r < 0.8 ? undefined : "");
				break;
			}
			case "custom":
				sm.appendCustomEntry(`ext-${rng.pick(["state", "todo", "plan"])}`, rng.chance(0.2) ? undefined : { n: i, v: words(rng, 1, 3) });
				break;
			case "customMessage":
				sm.appendCustomMessageEntry(
					"ext-note",
					rng.chance(0.5) ? sentence(rng) : [m.text(sentence(rng))],
					rng.chance(0.5),
					rng.pick([undefined, null, { k: i }]),
				);
				break;
			case "sessionInfo":
				sm.appendSessionInfo(rng.chance(0.2) ? "  " : `${words(rng, 1, 3)}`);
				break;
			case "thinking":
				sm.appendThinkingLevelChange(rng.pick(["off", "minimal", "low", "medium", "high", "xhigh"]));
				break;
			case "model": {
				const mm = rng.pick(MODELS);
				sm.appendModelChange(mm.provider, mm.model);
				break;
			}
			case "image":
				ctx.u([m.text("see image"), m.image(rng.int(1, 3), rng.int(1, 3))]);
				ctx.a(sentence(rng));
				break;
		}
	}
	// make sure the default leaf is usually a message
	if (rng.chance(0.7)) ctx.turn(1);
}

// ---------------------------------------------------------------------------
// scenarios
// ---------------------------------------------------------------------------

const SCENARIOS = [];
function S(name, desc, build, opts) {
	SCENARIOS.push({ name, desc, build, opts });
}

// --- linear -----------------------------------------------------------------
S("linear-minimal", "one user + one assistant message", (c) => {
	c.u("hello");
	c.a("Hi! How can I help?");
});
S("linear-short", "three plain turns, string user content", (c) => {
	c.turn(3);
});
S("linear-array-content", "user content as string vs text-block arrays (one and several blocks)", (c) => {
	c.u("plain string content");
	c.a();
	c.u([c.m.text("one block")]);
	c.a();
	const id = c.u([c.m.text("first block"), c.m.text("second block"), c.m.text("")]);
	c.leaf(id, "user message with 3 text blocks");
	c.a();
	c.u([]);
	c.a("answer to empty content array");
});
S("linear-tool-calls", "assistant toolCall -> toolResult -> assistant, several tools, parallel calls", (c) => {
	c.u("Look at the repo");
	const t1 = c.toolTurn("ls", { path: "." }, [c.m.text("go.mod\nmain.go\n")]);
	c.leaf(t1.rid, "toolResult message");
	c.a("There is a Go module.");
	c.u("Read both files");
	const k1 = c.m.toolCall("read", { path: "go.mod" });
	const k2 = c.m.toolCall("read", { path: "main.go" });
	const aid = c.a([c.m.text("Reading both."), k1, k2], { stopReason: "toolUse" });
	c.leaf(aid, "assistant with two tool calls, results not yet appended");
	c.sm.appendMessage(c.m.toolResult(k1, [c.m.text("module x\n")]));
	c.sm.appendMessage(c.m.toolResult(k2, [c.m.text("package main\n")], { details: { lines: 1 } }));
	c.a("Done.");
});
S("linear-thinking", "thinking blocks (signed, unsigned, redacted) and thinking_level_change entries", (c) => {
	c.sm.appendThinkingLevelChange("high");
	c.u("think hard");
	c.a([c.m.thinking(), c.m.text("answer")]);
	const t = c.sm.appendThinkingLevelChange("low");
	c.leaf(t, "thinking_level_change entry (low)");
	c.u();
	c.a([c.m.thinking(undefined, false), c.m.text("short")]);
	c.sm.appendThinkingLevelChange("off");
	c.u();
	c.a([{ type: "thinking", thinking: "", thinkingSignature: "ZW5jcnlwdGVk", redacted: true }, c.m.text("redacted")]);
	c.sm.appendThinkingLevelChange("xhigh");
	c.turn(1);
});
S("linear-stop-reasons", "assistant stopReason length/error/aborted with errorMessage, empty content", (c) => {
	c.u();
	c.a("cut off", { stopReason: "length" });
	c.u();
	c.a([], { stopReason: "error", errorMessage: "429 rate limited" });
	c.u();
	c.a([c.m.text("partial")], { stopReason: "aborted", errorMessage: "Request was aborted" });
	c.u();
	c.a("ok", { responseId: "resp_123" });
});
S("linear-long-text", "long user/assistant/tool texts (tens of KB in one line)", (c) => {
	let long = "";
	while (long.length < 30000) long += `${paragraph(c.rng, 5)}\n`;
	c.u(long);
	c.a(long.slice(0, 12000));
	const { rid } = c.toolTurn("read", { path: "big.txt" }, [c.m.text(long.slice(0, 20000))]);
	c.leaf(rid, "tool result with 20k chars");
	c.a("summarised");
});
S("linear-model-then-assistant", "model_change before assistant: the assistant's provider/model wins", (c) => {
	c.u();
	c.a(undefined, { model: MODELS[0] });
	const mc = c.sm.appendModelChange("openai", "gpt-5.1-codex");
	c.leaf(mc, "model_change entry is leaf: model from model_change");
	c.u();
	c.a(undefined, { model: MODELS[2] });
});
S("linear-assistant-then-model", "assistant then model_change as last entry: model_change wins", (c) => {
	c.u();
	const a = c.a(undefined, { model: MODELS[1] });
	c.leaf(a, "assistant is leaf");
	c.sm.appendModelChange("anthropic", "claude-opus-4-1");
	c.sm.appendModelChange("custom-provider", "");
});
S("linear-model-change-first", "model_change and thinking change before the first user message", (c) => {
	c.sm.appendModelChange("google", "gemini-2.5-flash");
	c.sm.appendThinkingLevelChange("medium");
	c.u();
	c.a(undefined, { model: MODELS[3] });
	c.turn(2);
});
S("linear-odd-message-fields", "assistant without usage-ish optional fields, toolResult with details null/absent", (c) => {
	c.u();
	const call = c.m.toolCall("bash", { command: "true" });
	c.a([call], { stopReason: "toolUse" });
	c.sm.appendMessage(c.m.toolResult(call, [c.m.text("")], { details: null }));
	const call2 = c.m.toolCall("bash", { command: "false" });
	c.a([call2], { stopReason: "toolUse" });
	c.sm.appendMessage(c.m.toolResult(call2, [c.m.text("exit 1")], { isError: true, details: { exitCode: 1 } }));
	c.a("failed as expected");
});

// --- branches ----------------------------------------------------------------
S("branch-simple", "branch() back to an earlier assistant and continue", (c) => {
	c.u();
	const a1 = c.a();
	c.u();
	const a2 = c.a();
	c.leaf(a2, "tip of the abandoned branch");
	c.sm.branch(a1);
	c.u("alternative question");
	c.a();
	c.leaf(a1, "branch point");
});
S("branch-multiple", "three branches from the same user message's assistant", (c) => {
	c.u();
	const a1 = c.a();
	for (let i = 0; i < 3; i++) {
		c.sm.branch(a1);
		c.u(`variant ${i}`);
		const tip = c.a();
		if (i < 2) c.leaf(tip, `tip of variant ${i}`);
	}
});
S("branch-from-user", "branch to a user message (answer re-generated) and to its parent", (c) => {
	c.u();
	c.a();
	const u2 = c.u("question");
	const a2 = c.a("first answer");
	c.leaf(a2, "first answer tip");
	c.sm.branch(u2);
	c.a("second answer");
	c.sm.branch(u2);
	c.a("third answer");
	c.u("follow up");
	c.a();
});
S("branch-deep", "nested branches: branch of a branch of a branch", (c) => {
	c.turn(2);
	for (let d = 0; d < 4; d++) {
		c.u();
		const mid = c.a();
		c.turn(1);
		c.leaf(c.sm.getLeafId(), `abandoned tip at depth ${d}`);
		c.sm.branch(mid);
		c.u(`depth ${d} retry`);
		c.a();
	}
	c.turn(1);
});
S("branch-return-to-old-tip", "branch away, then branch back to the old tip and continue there", (c) => {
	c.u();
	const a1 = c.a();
	c.u();
	const oldTip = c.a();
	c.sm.branch(a1);
	c.u("detour");
	const detour = c.a();
	c.leaf(detour, "detour tip");
	c.sm.branch(oldTip);
	c.u("back on main");
	c.a();
});
S("branch-last-entry-not-newest-branch", "file's last line is on an older branch than the previous lines", (c) => {
	c.u();
	const a1 = c.a();
	c.u();
	c.a();
	c.sm.branch(a1);
	c.turn(3);
	c.sm.branch(a1);
	c.sm.appendCustomEntry("ext-marker", { at: "old branch" });
});

// --- resetLeaf / multiple roots -----------------------------------------------
S("reset-second-root", "resetLeaf(): a second root in the same file", (c) => {
	const first = c.u("first root question");
	c.a();
	c.turn(1);
	c.leaf(c.sm.getLeafId(), "tip of first root");
	c.sm.resetLeaf();
	const r2 = c.u("second root question");
	c.leaf(r2, "second root");
	c.a();
	c.leaf(first, "first root");
});
S("reset-many-roots", "several resetLeaf() roots, including a non-message root", (c) => {
	c.turn(1);
	c.sm.resetLeaf();
	const mc = c.sm.appendModelChange("openai", "gpt-5.1-codex");
	c.leaf(mc, "model_change root");
	c.turn(1);
	c.sm.resetLeaf();
	const th = c.sm.appendThinkingLevelChange("high");
	c.leaf(th, "thinking root");
	c.u();
	c.a();
	c.sm.resetLeaf();
	c.turn(2);
});
S("reset-then-branch-back", "resetLeaf(), then branch back into the first tree and continue", (c) => {
	c.u();
	const a1 = c.a();
	c.sm.resetLeaf();
	c.turn(2);
	c.leaf(c.sm.getLeafId(), "tip of second root");
	c.sm.branch(a1);
	c.turn(1);
});

// --- compaction -----------------------------------------------------------------
S("compaction-simple", "one compaction keeping the last turn (firstKeptEntryId = user message on path)", (c) => {
	c.turn(3);
	const keep = c.u("kept question");
	c.a("kept answer");
	const comp = c.sm.appendCompaction("Summary of the first three turns.", keep, 12345);
	c.leaf(comp, "compaction entry as leaf");
	c.turn(2);
	c.leaf(keep, "before the compaction (no compaction on path)");
});
S("compaction-multiple", "three compactions on one path; only the last counts; its kept range spans an older compaction", (c) => {
	c.turn(2);
	const k1 = c.u();
	c.a();
	const c1 = c.sm.appendCompaction("first summary", k1, 1000);
	c.leaf(c1, "first compaction");
	c.turn(2);
	const k2 = c.sm.getLeafId();
	c.turn(1);
	const c2 = c.sm.appendCompaction("second summary", c1, 2000);
	c.leaf(c2, "second compaction: firstKeptEntryId = the first compaction entry");
	c.turn(1);
	c.sm.appendCompaction("third summary", k2, 3000, { readFiles: ["x.go"], modifiedFiles: [] });
	c.turn(1);
});
S("compaction-kept-other-branch", "firstKeptEntryId points at an entry on another branch (nothing kept)", (c) => {
	c.u();
	const a1 = c.a();
	const other = c.u("on branch A");
	c.a();
	c.sm.branch(a1);
	c.turn(2);
	const comp = c.sm.appendCompaction("summary referencing branch A", other, 5000);
	c.leaf(comp, "compaction");
	c.turn(1);
	c.leaf(other, "branch A entry itself");
});
S("compaction-kept-label-entry", "firstKeptEntryId points at a label entry on the path", (c) => {
	c.turn(1);
	const target = c.u();
	c.a();
	const lab = c.sm.appendLabelChange(target, "checkpoint");
	c.leaf(lab, "label entry");
	c.turn(2);
	c.sm.appendCompaction("summary", lab, 7000);
	c.turn(1);
});
S("compaction-kept-label-off-path", "firstKeptEntryId points at a label entry on another branch", (c) => {
	c.u();
	const a1 = c.a();
	const t = c.u();
	c.a();
	const lab = c.sm.appendLabelChange(t, "elsewhere");
	c.sm.branch(a1);
	c.turn(2);
	c.sm.appendCompaction("summary", lab, 7000);
	c.turn(1);
});
S("compaction-kept-nonexistent", "firstKeptEntryId is an id that exists nowhere", (c) => {
	c.turn(3);
	const comp = c.sm.appendCompaction("summary", "deadbeef", 9000);
	c.leaf(comp, "compaction");
	c.turn(2);
});
S("compaction-kept-missing-key", "compaction without firstKeptEntryId key (undefined, as after some v1 migrations)", (c) => {
	c.turn(2);
	c.sm.appendCompaction("summary without firstKeptEntryId", undefined, 100);
	c.turn(1);
});
S("compaction-kept-root", "firstKeptEntryId = first entry (root): everything before kept", (c) => {
	const root = c.u();
	c.a();
	c.turn(2);
	c.sm.appendCompaction("summary", root, 100);
	c.turn(1);
	c.leaf(root, "root");
});
S("compaction-kept-nonmessage", "firstKeptEntryId at thinking/model/custom/session_info/label entries (no messages for them)", (c) => {
	c.turn(1);
	const th = c.sm.appendThinkingLevelChange("high");
	c.sm.appendModelChange("openai", "gpt-5.1-codex");
	c.sm.appendCustomEntry("ext-state", { a: 1 });
	c.sm.appendSessionInfo("named");
	c.turn(1);
	c.sm.appendCompaction("summary", th, 100);
	c.turn(1);
});
S("compaction-kept-custom-message", "firstKeptEntryId at a custom_message; kept range includes branch_summary", (c) => {
	c.turn(1);
	const cm = c.sm.appendCustomMessageEntry("ext-note", "kept custom message", true, { x: 1 });
	const a = c.a();
	c.sm.branchWithSummary(a, "summary of abandoned work");
	c.turn(1);
	c.sm.appendCompaction("summary", cm, 100);
	c.turn(1);
	c.leaf(cm, "custom_message entry");
});
S("compaction-empty-summary", "compaction with empty summary string (still emitted), details and fromHook", (c) => {
	c.turn(2);
	const k = c.u();
	c.a();
	c.sm.appendCompaction("", k, 0, { note: "from hook" }, true);
	c.turn(1);
});
S("compaction-as-last-entry", "compaction is the last entry (default leaf = compaction)", (c) => {
	c.turn(2);
	const k = c.u();
	c.a();
	c.sm.appendCompaction("summary at end", k, 4242);
});
S("compaction-branch-before", "branch from before a compaction; the other branch sees no compaction", (c) => {
	c.turn(1);
	const a1 = c.a();
	c.turn(2);
	const k = c.u();
	c.a();
	c.sm.appendCompaction("summary", k, 100);
	c.turn(1);
	c.leaf(c.sm.getLeafId(), "tip after compaction");
	c.sm.branch(a1);
	c.turn(2);
});
S("compaction-kept-after-reset-root", "compaction on root 2 whose firstKeptEntryId is in root 1", (c) => {
	const r1 = c.u();
	c.a();
	c.sm.resetLeaf();
	c.turn(2);
	c.sm.appendCompaction("summary", r1, 100);
	c.turn(1);
});

// --- branch summaries --------------------------------------------------------------
S("branch-summary-basic", "branchWithSummary(id, summary) after abandoning a branch", (c) => {
	c.u();
	const a1 = c.a();
	c.turn(2);
	c.leaf(c.sm.getLeafId(), "abandoned tip");
	const bs = c.sm.branchWithSummary(a1, "We tried X and it failed.");
	c.leaf(bs, "branch_summary entry");
	c.turn(1);
});
S("branch-summary-from-root", "branchWithSummary(null, ...): a new root with fromId \"root\"", (c) => {
	c.turn(2);
	const bs = c.sm.branchWithSummary(null, "Everything above was abandoned.");
	c.leaf(bs, "branch_summary root");
	c.turn(1);
});
S("branch-summary-empty", "empty summary: written to file, not emitted in context", (c) => {
	c.u();
	const a1 = c.a();
	c.turn(1);
	c.sm.branchWithSummary(a1, "");
	c.turn(1);
	c.sm.branchWithSummary(null, "");
	c.turn(1);
});
S("branch-summary-details", "branch summaries with details object and fromHook true", (c) => {
	c.u();
	const a1 = c.a();
	c.turn(1);
	c.sm.branchWithSummary(a1, "hook summary", { readFiles: ["a"], modifiedFiles: ["b"] }, true);
	c.turn(1);
	c.sm.branchWithSummary(c.sm.getLeafId(), "chained summary", null, false);
	c.turn(1);
});

// --- labels -------------------------------------------------------------------------
S("labels-set-clear", "labels set, cleared with omitted key (undefined) and with \"\"; relabel", (c) => {
	const u1 = c.u();
	const a1 = c.a();
	c.sm.appendLabelChange(u1, "start");
	c.sm.appendLabelChange(a1, "answer");
	c.turn(1);
	const clr = c.sm.appendLabelChange(u1, undefined);
	c.leaf(clr, "label clear (omitted key)");
	c.sm.appendLabelChange(a1, "");
	c.sm.appendLabelChange(a1, "relabelled");
	c.turn(1);
});
S("labels-on-labels", "labels whose target is another label entry; label is default leaf", (c) => {
	const u = c.u();
	c.a();
	const l1 = c.sm.appendLabelChange(u, "first");
	const l2 = c.sm.appendLabelChange(l1, "label on label");
	c.leaf(l2, "label on label entry");
	c.turn(1);
	const l3 = c.sm.appendLabelChange(l2, "🏷️ deeper");
	c.leaf(l3, "third label");
	c.sm.appendLabelChange(l1, undefined);
});
S("labels-across-branches", "labels targeting entries on other branches and roots", (c) => {
	c.u();
	const a1 = c.a();
	const t = c.u();
	c.a();
	c.sm.branch(a1);
	c.turn(1);
	c.sm.appendLabelChange(t, "other branch");
	c.sm.resetLeaf();
	c.turn(1);
	c.sm.appendLabelChange(a1, "first tree");
	c.turn(1);
});

// --- custom / custom_message -------------------------------------------------------
S("custom-entries", "custom entries: data absent, null, object, string, array, number", (c) => {
	c.u();
	c.a();
	c.sm.appendCustomEntry("ext-a");
	c.sm.appendCustomEntry("ext-b", null);
	c.sm.appendCustomEntry("ext-c", { nested: { deep: [1, 2, { x: "y" }] } });
	c.sm.appendCustomEntry("ext-d", "just a string");
	c.sm.appendCustomEntry("ext-e", [1, "two", null]);
	const n = c.sm.appendCustomEntry("ext-f", 0);
	c.leaf(n, "custom entry as leaf");
	c.turn(1);
});
S("custom-message-details", "custom_message: details absent vs null vs object; display true/false", (c) => {
	c.u();
	c.a();
	const d0 = c.sm.appendCustomMessageEntry("ext-note", "details absent", true);
	c.leaf(d0, "custom_message details absent");
	const d1 = c.sm.appendCustomMessageEntry("ext-note", "details null", false, null);
	c.leaf(d1, "custom_message details null");
	c.sm.appendCustomMessageEntry("ext-note", "details object", true, { a: [1, 2], b: null });
	c.sm.appendCustomMessageEntry("ext-note", "details false", false, false);
	c.turn(1);
});
S("custom-message-content", "custom_message content: string, text array, images, empty string and empty array", (c) => {
	c.u();
	c.a();
	c.sm.appendCustomMessageEntry("ext-img", [c.m.text("screenshot:"), c.m.image(3, 2)], true);
	c.sm.appendCustomMessageEntry("ext-img", [c.m.image(1, 1), c.m.image(2, 1, "image/webp")], false, { source: "clipboard" });
	c.sm.appendCustomMessageEntry("ext-txt", "", true);
	const e = c.sm.appendCustomMessageEntry("ext-txt", [], true);
	c.leaf(e, "custom_message with empty array");
	c.turn(1);
});
S("custom-role-message", "message entries with role custom (as migrated hookMessage) and role bashExecution", (c) => {
	c.u();
	c.a();
	c.sm.appendMessage({ role: "custom", customType: "ext-x", content: "a custom-role message", display: true, timestamp: c.m.tick() });
	c.sm.appendMessage(c.m.bash({ command: "echo hi", output: "hi\n" }));
	c.turn(1);
});

// --- session_info -------------------------------------------------------------------
S("session-info-names", "session_info names incl. whitespace-only (written as \"\"), trimmed, unicode, renames", (c) => {
	c.u();
	c.a();
	c.sm.appendSessionInfo("My session");
	c.sm.appendSessionInfo("   padded name   ");
	const w = c.sm.appendSessionInfo("   ");
	c.leaf(w, "session_info with empty name");
	c.turn(1);
	c.sm.appendSessionInfo("名前 🎉 \u001b[31mred\u001b[0m");
	c.sm.appendSessionInfo("final\tname\nwith newline");
});
S("session-info-branches", "session_info on different branches (name is file-order, not path)", (c) => {
	c.u();
	const a1 = c.a();
	c.sm.appendSessionInfo("branch A name");
	c.turn(1);
	c.sm.branch(a1);
	c.sm.appendSessionInfo("branch B name");
	c.turn(1);
});

// --- images / tools / bash ------------------------------------------------------------
S("images-user", "base64 PNG image blocks in user messages (mixed with text, image-only)", (c) => {
	c.u([c.m.text("what is this?"), c.m.image(2, 2)]);
	c.a("a tiny image");
	const u = c.u([c.m.image(1, 1)]);
	c.leaf(u, "image-only user message");
	c.a();
	c.u([c.m.image(3, 3), c.m.text("and this"), c.m.image(1, 2, "image/jpeg")]);
	c.a();
});
S("images-tool-result", "images inside toolResult content", (c) => {
	c.u("take a screenshot");
	const { rid } = c.toolTurn("screenshot", { url: "http://localhost" }, [c.m.text("captured"), c.m.image(3, 2)]);
	c.leaf(rid, "tool result with image");
	c.a("looks fine");
	c.toolTurn("read", { path: "logo.png" }, [c.m.image(2, 2)], { details: { bytes: 70 } });
	c.a();
});
S("bash-execution", "bashExecution messages: excludeFromContext, cancelled (exitCode undefined), truncated with fullOutputPath", (c) => {
	c.u();
	c.a();
	c.sm.appendMessage(c.m.bash({ command: "ls -la", output: "total 0\n" }));
	const ex = c.sm.appendMessage(c.m.bash({ command: "cat secret", output: "xxx", excludeFromContext: true }));
	c.leaf(ex, "excluded bash execution");
	c.sm.appendMessage(c.m.bash({ command: "sleep 100", output: "", exitCode: undefined, cancelled: true }));
	c.sm.appendMessage(c.m.bash({ command: "yes | head -n 100000", output: "y\ny\n", truncated: true, fullOutputPath: "/tmp/pi-bash-1.log" }));
	c.sm.appendMessage(c.m.bash({ command: "false", output: "", exitCode: 1, excludeFromContext: false }));
	c.sm.appendMessage(c.m.bash({ command: "null exit", output: "x", exitCode: null }));
	c.turn(1);
});

// --- unicode / escapes / timestamps ----------------------------------------------------------
S("unicode", "CJK, emoji ZWJ, RTL, combining marks, astral chars, U+2028/2029, bidi overrides", (c) => {
	for (const s of UNICODE_SNIPPETS) {
		c.u(s);
		c.a([c.m.text(`echo: ${s}`)]);
	}
	c.sm.appendLabelChange(c.sm.getEntries()[0].id, "ラベル 🏷️");
	c.sm.appendCustomMessageEntry("ext-ü", "ümlaut custom", true);
	c.turn(1);
}, { cwd: "/home/dev/プロジェクト/ünïcödé dir" });
S("terminal-escapes", "ESC [31m, BEL, OSC 8 links, OSC 52, C1 CSI, CR, BS, DEL, NUL, DCS in message text", (c) => {
	for (const s of ESCAPE_SNIPPETS) {
		c.u(s);
		c.a(`reply with ${s}`);
	}
	const call = c.m.toolCall("bash", { command: "printf '\\033[31m'" });
	c.a([call], { stopReason: "toolUse" });
	c.sm.appendMessage(c.m.toolResult(call, [c.m.text("\u001b[31mRED\u001b[0m\u0007")]));
	c.sm.appendMessage(c.m.bash({ command: "tput setaf 1", output: "\u001b[31m" }));
	c.sm.appendSessionInfo("\u001b]8;;http://x\u0007name\u001b]8;;\u0007");
	c.sm.appendCustomMessageEntry("ext-\u001b[1m", "\u001b[2J", true);
	c.turn(1);
});
S("lone-surrogates", "strings with lone UTF-16 surrogates (JSON \\ud800 escapes written by JSON.stringify)", (c) => {
	c.u("lone high \ud800 and lone low \udc00 and pair \ud83d\ude00");
	c.a("reply \udbff end");
	c.turn(1);
});
S("same-timestamp", "all entries written with one identical timestamp (clock frozen during generation), with branches", (c) => {
	c.u();
	const a1 = c.a();
	c.turn(3);
	c.sm.branch(a1);
	c.turn(2);
	c.sm.appendLabelChange(a1, "same ms");
	c.sm.branch(a1);
	c.turn(1);
}, { clock: "frozen" });
S("fast-burst", "real wall clock: many entries appended back-to-back (natural timestamp ties)", (c) => {
	c.turn(1);
	for (let i = 0; i < 40; i++) c.sm.appendCustomEntry("ext-burst", { i });
	c.turn(1);
}, { clock: "real" });
S("clock-skew", "entry timestamps sometimes run backwards (clock skew) across branches", (c) => {
	c.u();
	const a1 = c.a();
	c.turn(3);
	c.sm.branch(a1);
	c.turn(3);
	c.sm.branchWithSummary(a1, "skewed summary");
	c.sm.appendCustomMessageEntry("ext-note", "skewed custom message", true);
	c.turn(1);
}, { clock: "skew" });
S("nonexistent-leaf", "explicit leaf ids that do not exist fall back to the last entry", (c) => {
	c.turn(2);
	c.leaf("ffffffff", "nonexistent id: buildSessionContext falls back to last entry");
	c.leaf("", "empty-string leaf id: falsy, falls back to last entry");
	c.turn(1);
});
S("everything", "one session exercising most entry types on a single path", (c) => {
	c.sm.appendModelChange("anthropic", "claude-sonnet-4-5");
	c.sm.appendThinkingLevelChange("medium");
	const u = c.u([c.m.text("hi"), c.m.image(1, 1)]);
	c.a([c.m.thinking(), c.m.text("hello")]);
	c.toolTurn("read");
	c.a();
	c.sm.appendMessage(c.m.bash());
	c.sm.appendCustomEntry("ext", { z: 1 });
	c.sm.appendCustomMessageEntry("ext", "note", true, null);
	c.sm.appendLabelChange(u, "start");
	c.sm.appendSessionInfo("everything");
	const k = c.u();
	c.a();
	c.sm.appendCompaction("sum", k, 10);
	c.sm.branchWithSummary(c.sm.getLeafId(), "bs");
	c.turn(1);
});

// --- random mixed and large --------------------------------------------------------------
for (let i = 0; i < 12; i++) {
	S(`mix-${pad3(i)}`, `random mixed operations (${20 + i * 5} ops)`, (c) => randomSession(c, 20 + i * 5), { leaves: 5 });
}
S("large-branchy", "large: ~300 ops, heavy random branching", (c) => randomSession(c, 300, { branch: 20, turn: 30 }), { leaves: 6 });
S("large-compactions", "large: ~300 ops, many compactions and labels", (c) => randomSession(c, 300, { compaction: 10, label: 10 }), { leaves: 6 });
S("large-roots", "large: ~250 ops, many resetLeaf roots and branch summaries", (c) => randomSession(c, 250, { reset: 6, branchSummary: 8 }), { leaves: 6 });
S("large-linear-ish", "large: ~400 ops, few branches, long path", (c) => randomSession(c, 400, { branch: 1, reset: 0.2 }), { leaves: 6 });

// ---------------------------------------------------------------------------
// damaged inputs
// ---------------------------------------------------------------------------

// Load a damaged file the way loadEntriesFromFile does (we call the real
// one), never via SessionManager.open (which rewrites headerless files).
function damagedExpectation(name, desc, text, extraLeaves = []) {
	const file = join(args.out, "damaged", `${name}.jsonl`);
	writeFileSync(file, text);
	const loaded = loadEntriesFromFile(file);
	// migrations only run when a header exists; all damaged inputs are v3.
	const entries = loaded.filter((e) => e.type !== "session");
	const headerOk = loaded.length > 0;
	// What SessionManager would use as the leaf: id of the last non-header
	// entry (_buildIndex). May differ from "no leaf argument" when that id is
	// null/undefined.
	let smLeafId = null;
	for (const e of loaded) if (e.type !== "session") smLeafId = e.id;
	const cases = [contextCase(entries, null, "default (no leaf argument: last entry)")];
	for (const l of extraLeaves) cases.push(contextCase(entries, l.leaf, l.why));
	const out = {
		file: `${name}.jsonl`,
		description: desc,
		header_ok: headerOk,
		loaded_entries: loaded,
		parse_session_entries_count: parseSessionEntries(text).length,
		cases,
	};
	if (smLeafId === undefined) out.session_manager_leaf_id_undefined = true;
	else out.session_manager_leaf_id = smLeafId;
	if (smLeafId !== undefined && smLeafId !== null && !walkHasCycle(entries, smLeafId)) {
		const smCtx = buildSessionContext(entries, smLeafId);
		if (!cases[0].hangs && !stringifyEq(smCtx, cases[0].context)) out.session_manager_context = smCtx;
	} else if (smLeafId === null && entries.length > 0) {
		// SessionManager would call buildSessionContext(entries, null): empty.
		out.session_manager_context = buildSessionContext(entries, null);
	}
	writeJson(join(args.out, "damaged", `${name}.expected.json`), out);
	index.push({ name: `damaged/${name}`, description: desc, entries: entries.length, header_ok: headerOk });
}

function splitLines(text) {
	// keeps order; text ends with "\n"
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines;
}

function genDamaged(bases) {
	const base = (n) => readFileSync(bases[n], "utf8");
	const L = (n) => splitLines(base(n));
	const join1 = (lines) => `${lines.join("\n")}\n`;
	const obj = (line) => JSON.parse(line);

	// base 0: linear-short-ish; base 1: branchy; base 2: compaction
	{
		const lines = L(0);
		const last = lines[lines.length - 1];
		damagedExpectation(
			"torn-last-line",
			"last line cut in half, no trailing newline (crash mid-write)",
			`${lines.slice(0, -1).join("\n")}\n${last.slice(0, Math.floor(last.length / 2))}`,
		);
	}
	{
		const lines = L(0);
		const last = lines[lines.length - 1];
		const torn = last.slice(0, 25);
		const more = obj(lines[lines.length - 1]);
		more.id = "a1b2c3d4";
		more.parentId = obj(last).id;
		damagedExpectation(
			"torn-then-appended",
			"torn line with the next entry glued onto it (pi <=0.73 appends after a torn tail): both lost",
			`${lines.slice(0, -1).join("\n")}\n${torn}${JSON.stringify(more)}\n`,
		);
	}
	{
		const lines = L(1);
		const mid = Math.floor(lines.length / 2);
		damagedExpectation(
			"garbage-mid",
			"non-JSON garbage line and a truncated JSON object line in the middle",
			join1([...lines.slice(0, mid), "this is not json", '{"type":"message","id":', ...lines.slice(mid)]),
		);
	}
	{
		const lines = L(0);
		const out = ["", "   ", lines[0], "", ...lines.slice(1, 3), "\t", " ", ...lines.slice(3), "", "", ""];
		damagedExpectation("blank-lines", "empty and whitespace-only lines before the header, between entries and at the end", join1(out));
	}
	damagedExpectation("crlf", "CRLF line endings throughout", base(1).replace(/\n/g, "\r\n"));
	damagedExpectation("bom", "UTF-8 BOM before the header", `\ufeff${base(0)}`);
	{
		const lines = L(1);
		const mid = Math.floor(lines.length / 2);
		damagedExpectation(
			"nul-run-mid",
			"a line of 512 NUL bytes in the middle (filesystem crash pattern)",
			join1([...lines.slice(0, mid), "\u0000".repeat(512), ...lines.slice(mid)]),
		);
	}
	damagedExpectation("nul-run-tail", "NUL bytes after the last newline (no trailing newline)", `${base(0)}${"\u0000".repeat(300)}`);
	{
		const lines = L(0);
		const mid = Math.floor(lines.length / 2);
		damagedExpectation(
			"non-object-42-mid",
			"a bare `42` line mid-file: pi keeps it as an entry (id undefined), default leaf unaffected",
			join1([...lines.slice(0, mid), "42", ...lines.slice(mid)]),
		);
	}
	damagedExpectation(
		"non-object-42-last",
		"a bare `42` as the last line: it becomes the default leaf -> empty context",
		`${base(0)}42\n`,
	);
	{
		const lines = L(0);
		damagedExpectation(
			"non-objects-mixed",
			'non-object JSON values (42, "str", true, [1,2], {}) mid-file; `null` excluded (crashes pi)',
			join1([...lines.slice(0, 3), "42", '"str"', "true", "[1,2]", "{}", ...lines.slice(3)]),
		);
	}
	{
		const lines = L(0);
		damagedExpectation("missing-header", "header line removed: loader returns [] (pi <=0.73 would clobber it on open)", join1(lines.slice(1)));
	}
	{
		const lines = L(0);
		damagedExpectation("garbage-before-header", "garbage line before the header: skipped, header still accepted", join1(["garbage", ...lines]));
	}
	{
		const lines = L(0);
		damagedExpectation(
			"header-not-first",
			"a valid entry line before the header: first parsed value is not a header -> []",
			join1([lines[1], lines[0], ...lines.slice(2)]),
		);
	}
	{
		const lines = L(0);
		const h = obj(lines[0]);
		delete h.id;
		damagedExpectation("header-without-id", "header without id -> []", join1([JSON.stringify(h), ...lines.slice(1)]));
	}
	{
		const lines = L(0);
		const h = obj(lines[0]);
		h.id = 12345;
		damagedExpectation("header-numeric-id", "header id is a number -> []", join1([JSON.stringify(h), ...lines.slice(1)]));
	}
	{
		const lines = L(1);
		const mid = Math.floor(lines.length / 2);
		const h2 = obj(lines[0]);
		h2.id = "0199aaaa-0000-7000-8000-000000000000";
		damagedExpectation(
			"second-header-mid",
			"a second session header mid-file: filtered out of entries (type === session)",
			join1([...lines.slice(0, mid), JSON.stringify(h2), ...lines.slice(mid)]),
		);
	}
	{
		// duplicate ids: a later entry on another branch reuses the id of an
		// earlier entry (not its own parent), children re-pointed to it.
		const es = L(1).map(obj);
		const target = es[3];
		const j = es.length - 2;
		const dup = es[j];
		const origId = dup.id;
		dup.id = target.id;
		for (const e of es) if (e.parentId === origId) e.parentId = target.id;
		damagedExpectation(
			"duplicate-ids",
			`entry at line ${j + 1} reuses the id of line 4 (later one wins in byId); line 5's parent now resolves to line ${j + 1}`,
			join1(es.map((e) => JSON.stringify(e))),
			[
				{ leaf: target.id, why: "the duplicated id (resolves to the later entry)" },
				{ leaf: es[4].id, why: "child of the shadowed earlier entry" },
			],
		);
	}
	{
		// duplicate id equal to the entry's own parent's id: byId makes it its own parent
		const es = L(1).map(obj);
		const j = es.length - 2;
		const dup = es[j];
		const origId = dup.id;
		dup.id = dup.parentId;
		for (const e of es) if (e.parentId === origId) e.parentId = dup.id;
		damagedExpectation(
			"duplicate-ids-cycle",
			`entry at line ${j + 1} reuses its parent's id: through byId it becomes its own parent, the default walk loops (pi hangs)`,
			join1(es.map((e) => JSON.stringify(e))),
			[{ leaf: es[2].id, why: "the duplicated id (now self-parented via byId, hangs)" }, { leaf: es[4].id, why: "entry on another branch whose path passes the duplicated id (hangs)" }],
		);
	}
	{
		// self-parent on a side entry (not on the default path) + as separate leaf (hangs)
		const lines = L(1);
		const es = lines.map(obj);
		const side = es[3];
		side.parentId = side.id;
		damagedExpectation(
			"self-parent",
			"line 4's parentId is its own id: buildSessionContext loops forever if it walks through it",
			join1(es.map((e) => JSON.stringify(e))),
			[{ leaf: side.id, why: "self-parented entry (hangs)" }],
		);
	}
	{
		const lines = L(0);
		const es = lines.map(obj);
		// es[1] is the root; make it point at the last entry -> cycle through the whole path
		es[1].parentId = es[es.length - 1].id;
		damagedExpectation(
			"parent-cycle",
			"root entry's parentId points at the last entry: the default path is a cycle (pi hangs)",
			join1(es.map((e) => JSON.stringify(e))),
		);
	}
	{
		const lines = L(2);
		const es = lines.map(obj);
		const k = Math.floor(es.length / 2);
		es[k].parentId = "0badc0de";
		damagedExpectation(
			"orphaned-subtree",
			`line ${k + 1}'s parentId points at a nonexistent id (e.g. a dropped label): the walk stops there`,
			join1(es.map((e) => JSON.stringify(e))),
			[{ leaf: es[k].id, why: "the orphan root" }],
		);
	}
	{
		const lines = L(0);
		const es = lines.map(obj);
		es[es.length - 1].id = null;
		damagedExpectation(
			"last-id-null",
			"last entry has id null: no-leaf-argument uses the last entry, SessionManager passes leafId null -> empty",
			join1(es.map((e) => JSON.stringify(e))),
		);
	}
	{
		const lines = L(0);
		const es = lines.map(obj);
		const line = JSON.stringify(es[es.length - 1]).replace('"type":"message"', '"type":"message","parentId":"zzzzzzzz"');
		damagedExpectation(
			"duplicate-keys",
			"last line has a duplicate parentId key (JSON.parse: last occurrence wins)",
			join1([...lines.slice(0, -1), line]),
		);
	}
	{
		const lines = L(0);
		const i = 2;
		const bad = Buffer.from(lines[i], "utf8");
		// replace the first letter of the text with invalid UTF-8 bytes
		const pos = bad.indexOf(Buffer.from('"text":"')) + 8;
		const pos2 = pos > 7 ? pos : bad.indexOf(Buffer.from('"content":"')) + 11;
		const buf = Buffer.concat([
			Buffer.from(`${lines.slice(0, i).join("\n")}\n`),
			bad.subarray(0, pos2),
			Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
			bad.subarray(pos2),
			Buffer.from(`\n${lines.slice(i + 1).join("\n")}\n`),
		]);
		damagedExpectationBytes("invalid-utf8", "invalid UTF-8 bytes inside a string (readFileSync utf8 turns them into U+FFFD)", buf);
	}
	{
		const lines = L(0);
		const es = lines.map(obj);
		const pretty = JSON.stringify(es[es.length - 1], null, 2);
		damagedExpectation("pretty-printed-last", "last entry pretty-printed over several lines: every line fails JSON.parse and is dropped", join1([...lines.slice(0, -1), pretty]));
	}
	{
		const lines = L(0);
		damagedExpectation(
			"two-objects-one-line",
			"two entries glued on one line (missing newline): the whole line is dropped",
			join1([...lines.slice(0, -2), lines[lines.length - 2] + lines[lines.length - 1]]),
		);
	}
	{
		const lines = L(2);
		const es = lines.map(obj);
		for (const e of es) if (e.type === "custom_message" || e.type === "branch_summary" || e.type === "compaction") e.timestamp = "not a date";
		damagedExpectation(
			"bad-entry-timestamps",
			"compaction/branch_summary/custom_message entries with unparseable timestamp (Date -> NaN -> null in JSON)",
			join1(es.map((e) => JSON.stringify(e))),
		);
	}
}

function damagedExpectationBytes(name, desc, buf) {
	// loadEntriesFromFile reads the bytes itself; reuse the text path but keep bytes on disk.
	const file = join(args.out, "damaged", `${name}.jsonl`);
	writeFileSync(file, buf);
	const text = readFileSync(file, "utf8");
	// damagedExpectation would overwrite with re-encoded text; compute here.
	const loaded = loadEntriesFromFile(file);
	const entries = loaded.filter((e) => e.type !== "session");
	let smLeafId = null;
	for (const e of loaded) if (e.type !== "session") smLeafId = e.id;
	const out = {
		file: `${name}.jsonl`,
		description: desc,
		header_ok: loaded.length > 0,
		loaded_entries: loaded,
		parse_session_entries_count: parseSessionEntries(text).length,
		session_manager_leaf_id: smLeafId,
		cases: [contextCase(entries, null, "default (no leaf argument: last entry)")],
	};
	writeJson(join(args.out, "damaged", `${name}.expected.json`), out);
	index.push({ name: `damaged/${name}`, description: desc, entries: entries.length, header_ok: out.header_ok });
}

// ---------------------------------------------------------------------------
// migrations (hand-written inputs in the migrate dir)
// ---------------------------------------------------------------------------

function genMigrate() {
	const dir = args.migrate;
	const inputs = readdirSync(dir)
		.filter((f) => f.endsWith(".jsonl") && !f.endsWith(".pi-migrated.jsonl"))
		.sort();
	if (inputs.length === 0) throw new Error(`no migration inputs in ${dir}`);
	for (const f of inputs) {
		const name = f.slice(0, -".jsonl".length);
		const tmp = join(mkdtempSync(join(TMP, "m-")), f);
		copyFileSync(join(dir, f), tmp);
		const before = readFileSync(tmp, "utf8");
		let sm;
		try {
			sm = SessionManager.open(tmp, dirnameOf(tmp));
		} catch (err) {
			const after = readFileSync(tmp, "utf8");
			rmSync(join(dir, `${name}.pi-migrated.jsonl`), { force: true });
			writeJson(join(dir, `${name}.expected.json`), {
				file: null,
				source: f,
				throws: String(err && err.message),
				rewritten: before !== after,
				cases: [],
			});
			console.log(`migrate ${f}: SessionManager.open threw: ${err && err.message}`);
			continue;
		}
		const after = readFileSync(tmp, "utf8");
		writeFileSync(join(dir, `${name}.pi-migrated.jsonl`), after);
		const { entries } = loadForContext(join(dir, `${name}.pi-migrated.jsonl`));
		const ctx = buildSessionContext(entries);
		if (!stringifyEq(ctx, sm.buildSessionContext())) throw new Error(`${name}: migrated ctx mismatch`);
		const cases = [{ leaf: null, why: "default (no leaf argument: last entry)", context: ctx }];
		writeJson(join(dir, `${name}.expected.json`), {
			file: `${name}.pi-migrated.jsonl`,
			source: f,
			rewritten: before !== after,
			cases,
		});
		console.log(`migrate ${f}: ${before === after ? "unchanged" : "rewritten"}, ${entries.length} entries`);
	}
}

// ---------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------

function cleanDir(d, pred) {
	mkdirSync(d, { recursive: true });
	for (const f of readdirSync(d)) if (pred(f)) rmSync(join(d, f));
}

if (args.parts.has("parity") || args.parts.has("damaged")) {
	cleanDir(join(args.out, "sessions"), (f) => f.endsWith(".jsonl"));
	cleanDir(join(args.out, "expected"), (f) => f.endsWith(".json"));
	const produced = {};
	SCENARIOS.forEach((s, i) => {
		const num = i + 1;
		const r = generateSession(num, s.name, s.desc, s.build, s.opts ?? {});
		produced[s.name] = r.file;
	});
	if (args.parts.has("damaged")) {
		cleanDir(join(args.out, "damaged"), (f) => f.endsWith(".jsonl") || f.endsWith(".expected.json"));
		genDamaged([produced["linear-tool-calls"], produced["branch-multiple"], produced["compaction-kept-custom-message"]]);
	}
	writeJson(join(args.out, "index.json"), { generator: "gen.mjs", pi: PI_VERSION, seed: args.seed, node: process.version, fixtures: index });
	console.log(`wrote ${SCENARIOS.length} sessions${args.parts.has("damaged") ? " + damaged set" : ""} to ${args.out}`);
}
if (args.parts.has("migrate")) genMigrate();

// Session listing (what pi's /resume picker shows) for the generated and the
// damaged files: SessionManager.list(cwd, dir) -> buildSessionInfo per file.
async function genListing(dir, outFile) {
	const infos = await SessionManager.list("/unused", dir);
	const listed = new Set(infos.map((i) => basename(i.path)));
	const rows = infos
		.map((i) => ({
			file: basename(i.path),
			id: i.id,
			cwd: i.cwd,
			name: i.name,
			parentSessionPath: i.parentSessionPath,
			created: i.created,
			modified: i.modified,
			messageCount: i.messageCount,
			firstMessage: i.firstMessage,
			allMessagesText: i.allMessagesText,
		}))
		.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
	const skipped = readdirSync(dir)
		.filter((f) => f.endsWith(".jsonl") && !listed.has(f))
		.sort();
	writeJson(outFile, { dir: basename(dir), sessions: rows, skipped });
}
if (args.parts.has("parity") || args.parts.has("damaged") || args.parts.has("listing")) {
	await genListing(join(args.out, "sessions"), join(args.out, "listing-sessions.json"));
	await genListing(join(args.out, "damaged"), join(args.out, "listing-damaged.json"));
}
