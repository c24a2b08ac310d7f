#!/usr/bin/env node
// Parity fixtures for pi 1.5.2 (npm @earendil-works/pi-coding-agent@1.5.2).
//
// Runs pi 1.5.2's own session code (dist/core/session-manager.js, loaded from
// the module tree setup.sh builds OUTSIDE the repository) to
//   1. re-run every 0.73.1 fixture of ../ (sessions/, damaged/, ../../migrate/)
//      through 1.5.2's loader and buildSessionContext, for the same leaves;
//   2. write new sessions with 1.5.2's SessionManager that use what 1.5.2
//      added (context_edit, role "system" messages, usage entries, compaction
//      systemMessage and default firstKeptEntryId, branchWithSummary fromId,
//      createBranchedSession across labels, session_info sanitising);
//   3. compute 1.5.2's context for hand-written files (what other writers,
//      older versions or hand edits leave: null content, odd edits, BOM,
//      header discovery);
//   4. record 1.5.2's session listing (SessionManager.listAll(dir)).
// Output is committed; CI needs no npm. Usage (see README.md here):
//
//   sh testdata/pi/parity/v152/setup.sh /tmp/pi152
//   node testdata/pi/parity/v152/gen.mjs --pkg /tmp/pi152/node_modules/@earendil-works/pi-coding-agent
//
// Entry ids and session ids come from pi's random generators, so a rerun is
// not byte-identical; message contents and clocks are seeded.

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (k, d) => {
	const i = argv.indexOf(k);
	return i >= 0 ? argv[i + 1] : d;
};
const pkg = resolve(opt("--pkg", "/tmp/pi152/node_modules/@earendil-works/pi-coding-agent"));
const out = resolve(opt("--out", here));
const parity = resolve(opt("--parity", join(here, "..")));
const migrateDir = resolve(opt("--migrate", join(here, "..", "..", "migrate")));
const SEED = Number(opt("--seed", "20261124"));
const pj = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
if (pj.version !== "1.5.2" && !argv.includes("--allow-other-version")) {
	console.error(`expected pi-coding-agent 1.5.2, found ${pj.version}`);
	process.exit(2);
}
const sm = await import(pathToFileURL(join(pkg, "dist/core/session-manager.js")).href);
const { SessionManager, buildSessionContext, loadEntriesFromFile, migrateSessionEntries } = sm;
const TMP = mkdtempSync(join(tmpdir(), "pi152-"));
// Error messages name the temporary copy; keep only the file name.
const clean = (e) => String(e?.message ?? e).split(`${TMP}/`).join("").replace(/\b[lo]-[A-Za-z0-9]{6}\//g, "");

// --- helpers ---------------------------------------------------------------

function rng32(seed) {
	let a = seed >>> 0;
	const next = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return { f: next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), pick: (arr) => arr[Math.floor(next() * arr.length)] };
}
const WORDS = "alpha branch cache delta entry fork graph hash index json kernel label model node offset parse query root stream token".split(" ");
const say = (r, n = 6) => Array.from({ length: n }, () => r.pick(WORDS)).join(" ");
const writeJson = (p, o) => writeFileSync(p, `${JSON.stringify(o)}\n`);
const pad3 = (n) => String(n).padStart(3, "0");

// Fake wall clock while pi writes (entry timestamps deterministic, ~15 % ties).
function withClock(r, start, fn) {
	const RealDate = Date;
	let t = start;
	const next = () => {
		if (r.f() >= 0.15) t += r.int(1, 40000);
		return t;
	};
	class FakeDate extends RealDate {
		constructor(...a) {
			if (a.length === 0) super(next());
			else super(...a);
		}
		static now() {
			return next();
		}
	}
	globalThis.Date = FakeDate;
	try {
		return fn();
	} finally {
		globalThis.Date = RealDate;
	}
}

function hasCycle(entries, leaf) {
	const byId = new Map();
	for (const e of entries) byId.set(e?.id, e);
	let cur = (leaf ? byId.get(leaf) : undefined) ?? entries[entries.length - 1];
	const seen = new Set();
	while (cur) {
		if (seen.has(cur)) return true;
		seen.add(cur);
		cur = cur.parentId ? byId.get(cur.parentId) : undefined;
	}
	return false;
}

// One case: 1.5.2's context for leaf (null = no leaf argument), or that it
// hangs (parent cycle) or throws (with pi's message).
function contextCase(entries, leaf, why) {
	const c = { leaf };
	if (why) c.why = why;
	if (hasCycle(entries, leaf ?? undefined)) {
		c.hangs = true;
		return c;
	}
	try {
		c.context = JSON.parse(JSON.stringify(buildSessionContext(entries, leaf ?? undefined)));
	} catch (e) {
		c.throws = clean(e);
	}
	return c;
}

// Load a file as SessionManager.open does (on a copy: 1.5.2's loader appends
// a newline to a file that lacks one).
function load(file) {
	const copy = join(mkdtempSync(join(TMP, "l-")), basename(file));
	copyFileSync(file, copy);
	let fileEntries;
	try {
		fileEntries = loadEntriesFromFile(copy);
	} catch (e) {
		return { error: clean(e), fileEntries: [], entries: [], copy };
	}
	const copy2 = join(mkdtempSync(join(TMP, "o-")), basename(file));
	copyFileSync(file, copy2);
	let openError;
	let openContext;
	try {
		const m = SessionManager.open(copy2, dirname(copy2));
		openContext = hasCycle(m.getEntries(), m.getLeafId()) ? undefined : JSON.parse(JSON.stringify(m.buildSessionContext()));
	} catch (e) {
		openError = clean(e);
	}
	try {
		migrateSessionEntries(fileEntries);
	} catch (e) {
		return { error: `migration throws: ${clean(e)}`, fileEntries: [], entries: [], openError };
	}
	return { fileEntries, entries: fileEntries.filter((e) => e?.type !== "session"), openError, openContext };
}

function expectationFor(file, leaves, extra = {}) {
	const { fileEntries, entries, openError, openContext, error } = load(file);
	const res = { file: basename(file), ...extra, header_ok: fileEntries.length > 0 };
	if (error) res.load_error = error;
	if (openError) res.open_error = openError;
	res.cases = [];
	if (fileEntries.length === 0) return res;
	res.cases.push(contextCase(entries, null, "default (no leaf argument: last entry)"));
	for (const l of leaves) {
		if (l.leaf === null) continue;
		res.cases.push(contextCase(entries, l.leaf, l.why));
	}
	if (openContext && res.cases[0].context && JSON.stringify(openContext) !== JSON.stringify(res.cases[0].context)) {
		res.session_manager_context = openContext;
	}
	return res;
}

// Pick extra leaves: scenario ones, then one of each interesting type, then random.
function chooseLeaves(entries, scenario, r, want = 5) {
	const seen = new Set();
	const chosen = [];
	const add = (leaf, why) => {
		if (leaf === undefined || seen.has(leaf)) return;
		seen.add(leaf);
		chosen.push({ leaf, why });
	};
	for (const l of scenario) add(l.leaf, l.why);
	const types = ["compaction", "context_edit", "usage", "branch_summary", "label", "session_info"];
	for (const t of types) {
		const pool = entries.filter((e) => e.type === t);
		if (pool.length) add(r.pick(pool).id, `${t} entry`);
	}
	const sys = entries.filter((e) => e.type === "message" && e.message?.role === "system");
	if (sys.length) add(r.pick(sys).id, "system message");
	const hasChild = new Set(entries.map((e) => e.parentId));
	const tips = entries.filter((e) => !hasChild.has(e.id));
	for (const t of tips.slice(0, 4)) add(t.id, "branch tip");
	let guard = 0;
	while (chosen.length < want && guard++ < 100 && entries.length) add(r.pick(entries).id, "random entry");
	return chosen;
}

// --- part 1: the 0.73.1 fixtures through 1.5.2 ------------------------------

function rerun(srcDir, pattern, kind) {
	const dst = join(out, "rerun", kind);
	rmSync(dst, { recursive: true, force: true });
	mkdirSync(dst, { recursive: true });
	let files = 0;
	let cases = 0;
	let same = 0;
	for (const f of readdirSync(srcDir).sort()) {
		if (!pattern.test(f)) continue;
		const old = JSON.parse(readFileSync(join(srcDir, f), "utf8"));
		const sessionFile = kind === "sessions" ? join(parity, "sessions", old.file) : join(srcDir, kind === "migrate" ? old.source : old.file);
		const leaves = (old.cases ?? []).map((c) => ({ leaf: c.leaf, why: c.why }));
		const res = expectationFor(sessionFile, leaves, { from: `${kind}/${f}` });
		if (kind === "migrate") res.file = old.source;
		// Mark which cases 1.5.2 computes exactly as 0.73.1 did.
		const oldBy = new Map((old.cases ?? []).map((c) => [JSON.stringify(c.leaf), c]));
		for (const c of res.cases) {
			const o = oldBy.get(JSON.stringify(c.leaf));
			if (!o) continue;
			c.same_as_0731 = JSON.stringify(o.context ?? null) === JSON.stringify(c.context ?? null) && !!o.hangs === !!c.hangs && !c.throws;
			if (c.same_as_0731) same++;
			cases++;
		}
		if (old.header_ok !== undefined && old.header_ok !== res.header_ok) res.header_ok_0731 = old.header_ok;
		writeJson(join(dst, f.replace(/\.expected\.json$/, ".json")), res);
		files++;
	}
	return { files, cases, same };
}

// --- part 2: sessions written by 1.5.2 -------------------------------------

class W {
	constructor(m, r, t0) {
		this.m = m;
		this.r = r;
		this.t = t0;
		this.leaves = [];
	}
	ts() {
		this.t += this.r.int(1, 60000);
		return this.t;
	}
	leaf(id, why) {
		this.leaves.push({ leaf: id, why });
		return id;
	}
	u(content) {
		return this.m.appendMessage({ role: "user", content: content ?? say(this.r, this.r.int(2, 9)), timestamp: this.ts() });
	}
	a(content, extra = {}) {
		return this.m.appendMessage({
			role: "assistant",
			content: content ?? [{ type: "text", text: say(this.r, this.r.int(3, 12)) }],
			api: "anthropic-messages",
			provider: extra.provider ?? "anthropic",
			model: extra.model ?? "claude-sonnet-4-5",
			usage: { input: this.r.int(1, 900), output: this.r.int(1, 300), cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
			stopReason: extra.stopReason ?? "stop",
			timestamp: this.ts(),
		});
	}
	sys(content, extra = {}) {
		return this.m.appendMessage({ role: "system", content, ...extra, timestamp: this.ts() });
	}
	tool() {
		const id = `toolu_${this.r.int(100000, 999999)}`;
		const a = this.a([{ type: "text", text: say(this.r, 3) }, { type: "toolCall", id, name: "read", arguments: { path: `src/${this.r.pick(WORDS)}.go` } }], { stopReason: "toolUse" });
		const t = this.m.appendMessage({ role: "toolResult", toolCallId: id, toolName: "read", content: [{ type: "text", text: say(this.r, 8) }], isError: false, timestamp: this.ts() });
		return { a, t };
	}
	turn() {
		this.u();
		return this.a();
	}
}

const index = [];
const forked = [];

function session(num, name, desc, build) {
	const base = `${pad3(num)}-${name}`;
	const r = rng32((SEED ^ Math.imul(num + 1, 0x9e3779b1)) >>> 0);
	const dir = mkdtempSync(join(TMP, "s-"));
	const t0 = Date.UTC(2026, 9, 1) + r.int(0, 86400 * 40) * 1000;
	const w = withClock(r, t0, () => {
		const m = SessionManager.create(`/home/dev/p/${name}`, dir);
		const w = new W(m, r, t0 + 777);
		build(w);
		return w;
	});
	const src = w.m.getSessionFile();
	if (!existsSync(src)) throw new Error(`${base}: pi wrote no file`);
	const dst = join(out, "sessions", `${base}.jsonl`);
	copyFileSync(src, dst);
	const { entries } = load(dst);
	if (JSON.stringify(entries) !== JSON.stringify(w.m.getEntries())) throw new Error(`${base}: file differs from memory`);
	const res = expectationFor(dst, chooseLeaves(entries, w.leaves, r), { description: desc });
	// Cross-check with the writer's own manager for every leaf.
	for (const c of res.cases.slice(1)) {
		if (c.hangs || c.throws || !w.m.getEntry(c.leaf)) continue;
		w.m.branch(c.leaf);
		if (JSON.stringify(w.m.buildSessionContext()) !== JSON.stringify(c.context)) throw new Error(`${base}: ${c.leaf} differs from memory`);
	}
	writeJson(join(out, "expected", `${base}.json`), res);
	index.push({ name: base, description: desc, entries: entries.length, cases: res.cases.length, types: [...new Set(entries.map((e) => (e.type === "message" ? `message:${e.message.role}` : e.type)))].sort() });
	return w;
}

const S = [];
const def = (name, desc, build) => S.push({ name, desc, build });

def("context-edit-basic", "context_edit of user (string, array), assistant (string becomes a text block), toolResult and custom_message", (w) => {
	const u1 = w.u("first question");
	const a1 = w.a();
	const { a: ta, t: tr } = w.tool();
	const cm = w.m.appendCustomMessageEntry("note", "custom text", true, { k: 1 });
	w.a();
	w.leaf(w.m.getLeafId(), "before any edit");
	w.leaf(w.m.appendContextEdit(u1, { content: "edited question" }), "after user string edit");
	w.m.appendContextEdit(a1, { content: "assistant replaced by a string" });
	w.m.appendContextEdit(tr, { content: "tool output replaced" });
	w.leaf(w.m.appendContextEdit(cm, { content: "custom replaced" }), "after custom edit");
	w.m.appendContextEdit(ta, { content: [{ type: "text", text: "array for assistant" }] });
	w.m.appendContextEdit(u1, { content: [{ type: "text", text: "second edit wins" }] });
	w.turn();
});

def("context-edit-null", "replacement null removes the entry; a later edit of the same target brings it back", (w) => {
	const u1 = w.u();
	const a1 = w.a();
	w.turn();
	w.leaf(w.m.appendContextEdit(a1, null), "assistant removed");
	w.leaf(w.m.appendContextEdit(u1, null), "user removed too");
	w.turn();
	w.leaf(w.m.appendContextEdit(a1, { content: "restored" }), "assistant restored by a later edit");
	w.turn();
});

def("context-edit-branches", "edits are branch-local: a sibling branch does not see them", (w) => {
	const u1 = w.u();
	const a1 = w.a();
	const fork = w.u();
	w.a();
	w.leaf(w.m.appendContextEdit(u1, { content: "edited on branch A" }), "edit on branch A");
	w.turn();
	w.leaf(w.m.getLeafId(), "tip of branch A");
	w.m.branch(a1);
	w.u();
	w.leaf(w.a(), "tip of branch B (no edit)");
	w.m.appendContextEdit(u1, null);
	w.leaf(w.a(), "branch B removes u1");
	w.leaf(fork, "fork point");
});

def("context-edit-compaction", "edits and compaction: edits of kept, hidden and post-compaction entries, edits before the compaction", (w) => {
	const u1 = w.u();
	w.a();
	const u2 = w.u();
	const a2 = w.a();
	w.m.appendContextEdit(u2, { content: "edit before compaction, target kept" });
	w.m.appendContextEdit(u1, { content: "edit before compaction, target hidden" });
	w.leaf(w.m.appendCompaction("summary one", u2, 1234), "compaction keeping u2");
	w.m.appendContextEdit(a2, { content: "edit after compaction of a kept entry" });
	w.m.appendContextEdit(u1, null);
	const u3 = w.u();
	w.a();
	w.leaf(w.m.appendContextEdit(u3, { content: "edit of a post-compaction entry" }), "post edit");
	w.turn();
});

def("system-messages", "role system messages: prompt, sections, tools; in context as stored", (w) => {
	w.sys("You are a careful assistant.");
	w.u();
	w.a();
	w.sys("", { sections: { tone: "short" }, toolsAdded: [{ name: "read", description: "read a file", parameters: { type: "object" } }] });
	w.turn();
	w.leaf(w.sys("Appended instructions."), "system message as leaf");
	w.turn();
});

def("compaction-system-message", "appendCompaction stores the system prompt in force (systemMessage); context starts with it; kept system messages are left out", (w) => {
	w.sys("Base prompt.");
	w.u();
	w.a();
	const u2 = w.u();
	w.sys("Mid-conversation system note.", { sections: { a: "1" } });
	w.a();
	w.leaf(w.m.appendCompaction("first summary", u2, 5000, { readFiles: ["a.go"] }), "compaction with systemMessage");
	w.turn();
	w.sys("Later prompt.");
	const u4 = w.u();
	w.a();
	w.leaf(w.m.appendCompaction("second summary", u4, 7000), "second compaction");
	w.turn();
});

def("compaction-default-kept", "firstKeptEntryId omitted: it defaults to the compaction's own id (keep nothing)", (w) => {
	w.turn();
	w.turn();
	w.leaf(w.m.appendCompaction("keep nothing", undefined, 100), "compaction keeping nothing");
	w.turn();
	const u = w.u();
	w.a();
	w.leaf(w.m.appendCompaction("kept u", u, 200, undefined, true), "compaction from hook");
	w.turn();
});

def("compaction-kept-spans-older", "the kept range of the newest compaction contains an older compaction (it contributes nothing)", (w) => {
	w.sys("prompt");
	const u1 = w.u();
	w.a();
	w.m.appendCompaction("old", u1, 10);
	w.turn();
	w.leaf(w.m.appendCompaction("new", u1, 20), "newest compaction; kept range spans the old one");
	w.turn();
});

def("usage-entries", "usage entries (with and without note) between turns: no context", (w) => {
	w.turn();
	w.m.appendUsage("compaction", "anthropic", "claude-haiku-4-5", { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, "summarising");
	w.turn();
	w.leaf(w.m.appendUsage("title", "openai", "gpt-5-mini", { input: 1, output: 1 }).id, "usage as leaf");
	w.turn();
});

def("branch-summary-fromid", "branchWithSummary: fromId is the leaf being left (root when none)", (w) => {
	const a1 = w.turn();
	w.turn();
	const left = w.a();
	w.leaf(w.m.branchWithSummary(a1, "we tried X", { files: [] }), `summary leaving ${left}`);
	w.turn();
	w.m.resetLeaf();
	w.leaf(w.m.branchWithSummary(null, "from nothing"), "summary with no leaf");
	w.turn();
	w.m.branchWithSummary(a1, "");
	w.turn();
});

def("session-info-names", "appendSessionInfo folds runs of CR/LF to one space and trims; tabs kept; empty clears", (w) => {
	w.turn();
	w.m.appendSessionInfo("first\r\n\r\nname\t\twith tabs  ");
	w.turn();
	w.m.appendSessionInfo("   ");
	w.turn();
	w.m.appendSessionInfo("  final \n name ");
	w.turn();
});

def("labels-and-fork-source", "labels on the path (some children of label entries), compaction whose firstKeptEntryId is a label; forked below", (w) => {
	const u1 = w.u();
	const a1 = w.a();
	w.m.appendLabelChange(u1, "start");
	const u2 = w.u();
	const lab = w.m.appendLabelChange(a1, "answer");
	w.a();
	w.m.appendCompaction("summary", lab, 300);
	w.m.appendLabelChange(u2, "second");
	w.turn();
	w.m.appendLabelChange(u2, undefined);
	w.turn();
});

function mix(nOps) {
	return (w) => {
		const r = w.r;
		w.sys("prompt " + say(r, 3));
		w.turn();
		for (let i = 0; i < nOps; i++) {
			const entries = w.m.getEntries();
			const branch = w.m.getBranch();
			const x = r.f();
			const editable = branch.filter((e) => e.type === "custom_message" || (e.type === "message" && ["user", "assistant", "toolResult"].includes(e.message.role)));
			try {
				if (x < 0.3) w.turn();
				else if (x < 0.4) w.tool();
				else if (x < 0.5 && editable.length) {
					const t = r.pick(editable);
					const y = r.f();
					w.m.appendContextEdit(t.id, y < 0.25 ? null : y < 0.6 ? { content: say(r, 4) } : { content: [{ type: "text", text: say(r, 4) }] });
				} else if (x < 0.57) w.sys(say(r, 5), r.f() < 0.3 ? { sections: { s: say(r, 2) } } : {});
				else if (x < 0.64) {
					const onPath = branch.filter((e) => e.type === "message");
					const y = r.f();
					const kept = y < 0.6 && onPath.length ? r.pick(onPath).id : y < 0.8 ? undefined : r.pick(entries).id;
					w.m.appendCompaction(say(r, 6), kept, r.int(100, 90000));
				} else if (x < 0.7) w.m.appendUsage("x", "anthropic", "m", { input: 1, output: 2 }, r.f() < 0.5 ? "n" : undefined);
				else if (x < 0.78) w.m.branch(r.pick(entries).id);
				else if (x < 0.83) w.m.branchWithSummary(r.f() < 0.85 ? r.pick(entries).id : null, r.f() < 0.2 ? "" : say(r, 5));
				else if (x < 0.87) w.m.appendLabelChange(r.pick(entries).id, r.f() < 0.3 ? undefined : say(r, 1));
				else if (x < 0.9) w.m.appendCustomMessageEntry("ext", r.f() < 0.5 ? say(r, 3) : [{ type: "text", text: say(r, 3) }], r.f() < 0.5, r.f() < 0.5 ? undefined : { d: 1 });
				else if (x < 0.93) w.m.appendThinkingLevelChange(r.pick(["low", "high", "off"]));
				else if (x < 0.95) w.m.appendModelChange("openai", "gpt-5");
				else if (x < 0.97) w.m.resetLeaf();
				else w.m.appendSessionInfo(say(r, 2));
			} catch (e) {
				// appendContextEdit/branch refuse some targets; that is pi's rule, skip.
			}
		}
		w.turn();
	};
}
for (let i = 0; i < 10; i++) def(`mix-${pad3(i)}`, `random 1.5.2 operations (${30 + i * 12} ops)`, mix(30 + i * 12));
def("large-mix", "random 1.5.2 operations (400 ops)", mix(400));

// --- part 3: hand-written files --------------------------------------------

const H = "2026-10-02T10:00:00.000Z";
const hdr = (id = "0199aaaa-0000-7000-8000-000000000001") => ({ type: "session", version: 3, id, timestamp: H, cwd: "/home/dev/p/hand" });
let hn = 0;
const e = (type, id, parentId, rest) => ({ type, id, parentId, timestamp: `2026-10-02T10:00:${pad3(++hn).slice(1)}.000Z`, ...rest });
const msg = (id, parentId, message) => e("message", id, parentId, { message: { timestamp: 1790000000000 + hn, ...message } });
const lines = (...objs) => objs.map((o) => (typeof o === "string" ? o : JSON.stringify(o))).join("\n") + "\n";
const HAND = [];
const hand = (name, desc, text, leaves = []) => HAND.push({ name, desc, text, leaves });

hand("null-content", "null and missing content: '' for system, [] for user/assistant/toolResult, custom_message content [] when absent or null",
	lines(hdr(), msg("u1", null, { role: "user", content: null }), msg("a1", "u1", { role: "assistant", content: null, provider: "p", model: "m" }),
		msg("s1", "a1", { role: "system", content: null }), msg("s2", "s1", { role: "system" }), msg("t1", "s2", { role: "toolResult", toolCallId: "x", toolName: "read" }),
		msg("b1", "t1", { role: "bashExecution", command: "ls", output: "", exitCode: 0, content: null }),
		e("custom_message", "c1", "b1", { customType: "n", display: true }), e("custom_message", "c2", "c1", { customType: "n", content: null, display: false, details: null }),
		msg("u2", "c2", { role: "user", content: "ok" })), [{ leaf: "c1" }, { leaf: "s2" }]);
hand("edit-odd-replacements", "context_edit shapes other writers may leave: string for user stays a string, object content, edits of bashExecution/system/compaction/label/unknown targets, replacement not an object",
	lines(hdr(), msg("u1", null, { role: "user", content: "q" }), msg("a1", "u1", { role: "assistant", content: [{ type: "text", text: "x" }], provider: "p", model: "m" }),
		msg("b1", "a1", { role: "bashExecution", command: "ls", output: "o", exitCode: 0 }), msg("s1", "b1", { role: "system", content: "sys" }),
		e("context_edit", "e1", "s1", { targetId: "u1", replacement: { content: "new q" } }),
		e("context_edit", "e2", "e1", { targetId: "b1", replacement: { content: "ignored for bash" } }),
		e("context_edit", "e3", "e2", { targetId: "s1", replacement: { content: "ignored for system" } }),
		e("context_edit", "e4", "e3", { targetId: "a1", replacement: { content: { weird: true } } }),
		e("context_edit", "e5", "e4", { targetId: "nope", replacement: null }),
		e("context_edit", "e6", "e5", { targetId: "e1", replacement: null }),
		e("context_edit", "e7", "e6", { targetId: "u1", replacement: "not an object" }),
		msg("u2", "e7", { role: "user", content: "z" }),
		e("context_edit", "e8", "u2", { targetId: "b1", replacement: null })), [{ leaf: "e1" }, { leaf: "e4" }, { leaf: "e6" }, { leaf: "u2" }]);
hand("compaction-self-kept", "firstKeptEntryId equal to the compaction's own id (1.5.2's default): nothing before it is kept; systemMessage null/false is not emitted",
	lines(hdr(), msg("u1", null, { role: "user", content: "a" }), msg("a1", "u1", { role: "assistant", content: [], provider: "p", model: "m" }),
		e("compaction", "c1", "a1", { summary: "s", firstKeptEntryId: "c1", tokensBefore: 9, systemMessage: null }),
		msg("u2", "c1", { role: "user", content: "b" }),
		e("compaction", "c2", "u2", { summary: "t", firstKeptEntryId: "u2", tokensBefore: 10, systemMessage: { role: "system", content: "P", timestamp: 5 } }),
		msg("s9", "c2", { role: "system", content: "after" })), [{ leaf: "c1" }, { leaf: "u2" }]);
hand("compaction-kept-system", "system messages in the kept range are left out; one after the compaction is kept",
	lines(hdr(), msg("s0", null, { role: "system", content: "p0" }), msg("u1", "s0", { role: "user", content: "a" }), msg("s1", "u1", { role: "system", content: "p1" }),
		msg("a1", "s1", { role: "assistant", content: [], provider: "p", model: "m" }),
		e("compaction", "c1", "a1", { summary: "s", firstKeptEntryId: "s0", tokensBefore: 9 }), msg("s2", "c1", { role: "system", content: "p2" })), [{ leaf: "c1" }]);
hand("session-info-trim", "names read back only trimmed (JavaScript trim, incl. U+FEFF); tabs and inner spaces kept",
	lines(hdr(), msg("u1", null, { role: "user", content: "a" }), e("session_info", "i1", "u1", { name: "\uFEFF  spaced\t\tname  \u00a0" }),
		e("session_info", "i2", "i1", { name: " two  spaces \r\n" })));
hand("header-after-garbage", "blank and malformed lines before the header are skipped",
	"\n   \n{not json\n" + lines(hdr("0199aaaa-0000-7000-8000-000000000002"), msg("u1", null, { role: "user", content: "a" })));
hand("bom", "a byte order mark before the header: 1.5.2 does not read the header, the file is not a session", "\uFEFF" + lines(hdr("0199aaaa-0000-7000-8000-000000000003"), msg("u1", null, { role: "user", content: "a" })));
hand("not-a-session", "a non-empty file whose first parsed line is not a session header", lines(msg("u1", null, { role: "user", content: "a" })));
hand("content-null-listing", "a user message with content null: 1.5.2's listing throws on it (the session vanishes from /resume); context is fine",
	lines(hdr("0199aaaa-0000-7000-8000-000000000004"), msg("u1", null, { role: "user", content: "hello" }), msg("u2", "u1", { role: "user", content: null })));
hand("message-without-message", "a message entry without message: 1.5.2 throws while rebuilding",
	lines(hdr("0199aaaa-0000-7000-8000-000000000005"), msg("u1", null, { role: "user", content: "a" }), e("message", "m2", "u1", {}), msg("u3", "m2", { role: "user", content: "b" })), [{ leaf: "u1" }]);

// --- main -------------------------------------------------------------------

for (const d of ["sessions", "expected", "hand"]) {
	rmSync(join(out, d), { recursive: true, force: true });
	mkdirSync(join(out, d), { recursive: true });
}
const rr = {
	sessions: rerun(join(parity, "expected"), /\.json$/, "sessions"),
	damaged: rerun(join(parity, "damaged"), /\.expected\.json$/, "damaged"),
	migrate: rerun(migrateDir, /\.expected\.json$/, "migrate"),
};
S.forEach((s, i) => session(101 + i, s.name, s.desc, s.build));

// Fork through 1.5.2's createBranchedSession (labels on the path re-chained).
{
	const src = join(out, "sessions", readdirSync(join(out, "sessions")).find((f) => f.includes("labels-and-fork-source")));
	const copy = join(mkdtempSync(join(TMP, "f-")), "src.jsonl");
	copyFileSync(src, copy);
	const m = SessionManager.open(copy, dirname(copy));
	const nf = m.createBranchedSession(m.getLeafId());
	const n = 101 + S.length;
	const dst = join(out, "sessions", `${pad3(n)}-labels-forked.jsonl`);
	copyFileSync(nf, dst);
	const { entries } = load(dst);
	const res = expectationFor(dst, chooseLeaves(entries, [], rng32(n)), { description: "createBranchedSession of the previous session's leaf: labels re-chained, firstKeptEntryId remapped", source: basename(src) });
	writeJson(join(out, "expected", `${pad3(n)}-labels-forked.json`), res);
	index.push({ name: `${pad3(n)}-labels-forked`, description: res.description, entries: entries.length, cases: res.cases.length });
}

for (const h of HAND) {
	const f = join(out, "hand", `${h.name}.jsonl`);
	writeFileSync(f, h.text);
	writeJson(join(out, "hand", `${h.name}.expected.json`), expectationFor(f, h.leaves, { description: h.desc }));
}

// --- part 4: listing ----------------------------------------------------------
async function listing(dir) {
	const infos = await SessionManager.listAll(dir);
	const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort();
	const byFile = new Map(infos.map((s) => [basename(s.path), s]));
	return {
		sessions: files.filter((f) => byFile.has(f)).map((f) => {
			const { path, ...rest } = byFile.get(f);
			return JSON.parse(JSON.stringify({ file: f, ...rest }));
		}),
		skipped: files.filter((f) => !byFile.has(f)),
	};
}
writeJson(join(out, "listing-sessions.json"), await listing(join(out, "sessions")));
writeJson(join(out, "listing-hand.json"), await listing(join(out, "hand")));
writeJson(join(out, "listing-0731-sessions.json"), await listing(join(parity, "sessions")));
writeJson(join(out, "listing-0731-damaged.json"), await listing(join(parity, "damaged")));

let nCases = 0;
for (const d of ["expected"]) for (const f of readdirSync(join(out, d))) nCases += JSON.parse(readFileSync(join(out, d, f), "utf8")).cases.length;
const summary = { pi: `${pj.name}@${pj.version}`, node: process.version, new_sessions: index.length, new_cases: nCases, rerun: rr, hand: HAND.length };
writeJson(join(out, "index.json"), { ...summary, sessions: index });
console.log(JSON.stringify(summary));
rmSync(TMP, { recursive: true, force: true });
