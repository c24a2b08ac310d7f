// Parity fixture generator for the oh-my-pi ("omp") dialect of the pi session format.
//
// Usage:  bun gen.ts <extracted @oh-my-pi/pi-coding-agent@18.3.4 package dir> [outDir]
//
// The package dir is the directory that contains package.json, src/ and dist/cli.js
// (e.g. node_modules/@oh-my-pi/pi-coding-agent, or `npm pack` output extracted to
// ./package). Nothing is installed by this script. See README.md for why the published
// bundle dist/cli.js is used instead of src/ (the 18.3.4 sibling packages it needs are
// not on the registry) and for the exact regeneration commands.
//
// Every session is written through the real SessionManager of the bundle, or derived
// from such a file by small line edits that keep the writer's exact JSON shape (cycles,
// orphans, malformed lines ...). Expected contexts are computed by loading each file
// back with the bundle's own SessionManager.open + buildSessionContext.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const pkgDir = path.resolve(process.argv[2] ?? "");
if (!process.argv[2] || !fs.existsSync(path.join(pkgDir, "dist", "cli.js"))) {
	console.error("usage: bun gen.ts <pi-coding-agent package dir> [outDir]");
	process.exit(2);
}
const outDir = path.resolve(process.argv[3] ?? import.meta.dir);
const pkgJson = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"));
if (pkgJson.version !== "18.3.4") {
	console.error(`expected @oh-my-pi/pi-coding-agent 18.3.4, found ${pkgJson.version}`);
	process.exit(2);
}

// ---------------------------------------------------------------------------
// Deterministic environment: fake clock and seeded ids (set before loading).
// ---------------------------------------------------------------------------
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "omp-parity-gen-"));
const agentDir = path.join(scratch, "agent");
fs.mkdirSync(agentDir, { recursive: true });
process.env.PI_CODING_AGENT_DIR = agentDir;
process.env.HOME = path.join(scratch, "home");
fs.mkdirSync(process.env.HOME, { recursive: true });
// Deterministic process cwd (an empty session file opened by SessionManager adopts it).
process.chdir("/");

const RealDate = Date;
let fakeNow = RealDate.UTC(2026, 4, 1, 10, 0, 0, 0);
class FakeDate extends RealDate {
	constructor(...args: any[]) {
		if (args.length === 0) super(fakeNow);
		else super(...(args as [any]));
	}
	static now(): number {
		return fakeNow;
	}
}
(globalThis as any).Date = FakeDate;
function tick(ms = 1000): void {
	fakeNow += ms;
}
function setClock(iso: string): void {
	fakeNow = RealDate.parse(iso);
}

let seed = 0x5eed1234;
function rand32(): number {
	// mulberry32
	seed = (seed + 0x6d2b79f5) | 0;
	let t = seed;
	t = Math.imul(t ^ (t >>> 15), t | 1);
	t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
	return ((t ^ (t >>> 14)) >>> 0);
}
function hex(n: number): string {
	let s = "";
	while (s.length < n) s += rand32().toString(16).padStart(8, "0");
	return s.slice(0, n);
}
function fakeUuid4(): string {
	const h = hex(32);
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
function fakeUuid7(): string {
	const ms = fakeNow.toString(16).padStart(12, "0");
	const h = hex(20);
	return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${h.slice(0, 3)}-8${h.slice(3, 6)}-${h.slice(6, 18)}`;
}
(globalThis.crypto as any).randomUUID = fakeUuid4;
try {
	(Bun as any).randomUUIDv7 = fakeUuid7;
} catch {
	// ignored; checked below
}
const uuidv7Patched = (Bun as any).randomUUIDv7 === fakeUuid7;

// ---------------------------------------------------------------------------
// Load the published bundle with its native addon stubbed (see omp-bundle.ts).
// ---------------------------------------------------------------------------
const { loadOmpBundle } = await import("./omp-bundle.ts");
const omp = await loadOmpBundle(pkgDir, scratch);
const { SessionManager, buildSessionContext, loadSessionFile, migrateToCurrentVersion, resolveBlobRefsInEntries } = omp;
if (omp.VERSION !== "18.3.4") throw new Error(`bundle VERSION ${omp.VERSION}`);
const BlobStoreCtor = omp.__blob.BlobStore;

// ---------------------------------------------------------------------------
// Message builders (pi-ai / coding-agent message shapes).
// ---------------------------------------------------------------------------
let msgTs = RealDate.UTC(2026, 4, 1, 10, 0, 0, 0);
function mts(): number {
	msgTs += 1000;
	return msgTs;
}
function usage(input = 100, output = 20) {
	return {
		input,
		output,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: input + output,
		cost: { input: 0.0003, output: 0.0006, cacheRead: 0, cacheWrite: 0, total: 0.0009 },
	};
}
function user(content: any, extra: Record<string, unknown> = {}) {
	return { role: "user", content, timestamp: mts(), ...extra };
}
function asst(content: any[] | string, extra: Record<string, unknown> = {}) {
	return {
		role: "assistant",
		content: typeof content === "string" ? [{ type: "text", text: content }] : content,
		api: "anthropic-messages",
		provider: "anthropic",
		model: "claude-sonnet-4-5",
		usage: usage(),
		stopReason: "stop",
		timestamp: mts(),
		...extra,
	};
}
function call(id: string, name = "read", args: Record<string, unknown> = { path: "README.md" }) {
	return { type: "toolCall", id, name, arguments: args };
}
function result(toolCallId: string, text: string, extra: Record<string, unknown> = {}) {
	return {
		role: "toolResult",
		toolCallId,
		toolName: "read",
		content: [{ type: "text", text }],
		isError: false,
		timestamp: mts(),
		...extra,
	};
}
function pngBase64(bytes: number, fill: number): string {
	const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	const body = Buffer.alloc(bytes - header.length);
	for (let i = 0; i < body.length; i++) body[i] = (fill + i * 7) & 0xff;
	return Buffer.concat([header, body]).toString("base64");
}

// ---------------------------------------------------------------------------
// Session construction helpers.
// ---------------------------------------------------------------------------
const sessionsOut = path.join(outDir, "sessions");
const expectedOut = path.join(outDir, "expected");
const blobsOut = path.join(outDir, "blobs");
for (const d of [sessionsOut, expectedOut, blobsOut]) {
	fs.rmSync(d, { recursive: true, force: true });
	fs.mkdirSync(d, { recursive: true });
}
const workSessions = path.join(scratch, "sessions");
fs.mkdirSync(workSessions, { recursive: true });

interface Built {
	/** Extra leaves to evaluate besides the default leaf. */
	leaves?: string[];
	/** Leaves evaluated through the free buildSessionContext only (e.g. unknown ids). */
	freeLeaves?: (string | null)[];
	/** Short human description stored in the expected file. */
	note?: string;
}
interface Ctx {
	sm: any;
	file(): string;
	/** Append through the manager after advancing the fake clock by 1 s. */
	t<T>(fn: () => T): T;
	flush(): Promise<void>;
	lines(): string[];
	writeLines(lines: string[], opts?: { raw?: string }): void;
	editEntries(fn: (e: any, i: number) => any): void;
}
type Builder = (c: Ctx) => Promise<Built | void> | Built | void;
const defs: { name: string; build: Builder; cwd?: string }[] = [];
function def(name: string, build: Builder): void {
	defs.push({ name, build });
}

function makeCtx(sm: any, rawFile?: { path: string }): Ctx {
	const ctx: Ctx = {
		sm,
		file: () => (rawFile ? rawFile.path : sm.getSessionFile()),
		t: fn => {
			tick();
			return fn();
		},
		flush: async () => {
			if (sm) {
				await sm.ensureOnDisk();
				await sm.flush();
			}
		},
		lines: () => fs.readFileSync(ctx.file(), "utf8").split("\n").filter((l, i, a) => !(i === a.length - 1 && l === "")),
		writeLines: (lines, opts) => {
			fs.writeFileSync(ctx.file(), opts?.raw ?? `${lines.join("\n")}\n`);
		},
		editEntries: fn => {
			const ls = ctx.lines();
			const out: string[] = [];
			ls.forEach((l, i) => {
				const obj = JSON.parse(l);
				if (obj.type === "title" || obj.type === "session") {
					out.push(l);
					return;
				}
				const r = fn(obj, i);
				if (r === undefined) out.push(l);
				else if (r === null) return;
				else if (typeof r === "string") out.push(r);
				else out.push(JSON.stringify(r));
			});
			ctx.writeLines(out);
		},
	};
	return ctx;
}

// ---------------------------------------------------------------------------
// Fixture definitions.
// ---------------------------------------------------------------------------
def("basic-linear", async c => {
	const { sm } = c;
	c.t(() => sm.appendModelChange("anthropic/claude-sonnet-4-5"));
	c.t(() => sm.appendThinkingLevelChange("medium"));
	const u1 = c.t(() => sm.appendMessage(user("Hello, list the files.")));
	const a1 = c.t(() => sm.appendMessage(asst("There are three files.")));
	const u2 = c.t(() => sm.appendMessage(user([{ type: "text", text: "Thanks. Now summarize README." }])));
	const a2 = c.t(() => sm.appendMessage(asst("README describes the project.")));
	return { leaves: [u1, a1, u2, a2], freeLeaves: [null, "does-not-exist"], note: "linear chain; explicit-null and unknown leaf via the free function" };
});

def("model-roles", async c => {
	const { sm } = c;
	const m1 = c.t(() => sm.appendModelChange("anthropic/claude-sonnet-4-5", "default"));
	const m2 = c.t(() => sm.appendModelChange("anthropic/claude-haiku-4-5", "smol"));
	const m3 = c.t(() => sm.appendModelChange("openai/gpt-5.2", "slow"));
	const u1 = c.t(() => sm.appendMessage(user("which models?")));
	const m4 = c.t(() => sm.appendModelChange("google/gemini-3-pro"));
	const m5 = c.t(() => sm.appendModelChange("openai/gpt-5-mini", "fallback", true));
	const a1 = c.t(() => sm.appendMessage(asst("four roles", { provider: "openai", model: "gpt-5-mini", api: "openai-responses" })));
	const m6 = c.t(() => sm.appendModelChange("anthropic/claude-opus-4-1", "plan"));
	return { leaves: [m1, m2, m3, u1, m4, m5, a1, m6], note: "model_change roles default/smol/slow/undefined/fallback/plan" };
});

def("assistant-vs-explicit-default", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("first")));
	const a1 = c.t(() => sm.appendMessage(asst("legacy inference", { provider: "openai", model: "gpt-4.1", api: "openai-completions" })));
	const m1 = c.t(() => sm.appendModelChange("anthropic/claude-sonnet-4-5"));
	const u2 = c.t(() => sm.appendMessage(user("second")));
	const a2 = c.t(() => sm.appendMessage(asst("served by a fallback", { provider: "openai", model: "gpt-5-mini", api: "openai-responses" })));
	const m2 = c.t(() => sm.appendModelChange("anthropic/claude-haiku-4-5", "smol"));
	const a3 = c.t(() => sm.appendMessage(asst("another", { provider: "google", model: "gemini-3-flash", api: "google-generative-ai" })));
	return { leaves: [a1, m1, u2, a2, m2, a3], note: "O18 rule: once an explicit default model_change is on the path, assistant messages no longer set models.default" };
});

def("assistant-only-models", async c => {
	const { sm } = c;
	c.t(() => sm.appendMessage(user("q1")));
	const a1 = c.t(() => sm.appendMessage(asst("a1", { provider: "openai", model: "gpt-5.2", api: "openai-responses" })));
	c.t(() => sm.appendMessage(user("q2")));
	const a2 = c.t(() => sm.appendMessage(asst("a2", { provider: "anthropic", model: "claude-opus-4-1" })));
	const m1 = c.t(() => sm.appendModelChange("openai/gpt-5-mini", "smol"));
	const a3 = c.t(() => sm.appendMessage(asst("a3", { provider: "xai", model: "grok-4", api: "openai-completions" })));
	return { leaves: [a1, a2, m1, a3], note: "no default model_change: models.default follows the latest assistant on the path" };
});

def("thinking-levels", async c => {
	const { sm } = c;
	const t1 = c.t(() => sm.appendThinkingLevelChange("high", "auto"));
	const u1 = c.t(() => sm.appendMessage(user("think hard")));
	const t2 = c.t(() => sm.appendThinkingLevelChange(undefined));
	const a1 = c.t(() => sm.appendMessage(asst("ok")));
	const t3 = c.t(() => sm.appendThinkingLevelChange("minimal"));
	const t4 = c.t(() => sm.appendThinkingLevelChange(undefined, "auto"));
	return { leaves: [t1, u1, t2, a1, t3, t4], note: "thinking_level_change with null thinkingLevel -> off; configured fallback chain" };
});

def("service-tier", async c => {
	const { sm } = c;
	const s1 = c.t(() => sm.appendServiceTierChange("priority"));
	const u1 = c.t(() => sm.appendMessage(user("fast please")));
	const s2 = c.t(() => sm.appendServiceTierChange("openai-only"));
	const s3 = c.t(() => sm.appendServiceTierChange({ openai: "flex", anthropic: "bogus", google: "default" }));
	const s4 = c.t(() => sm.appendServiceTierChange("claude-only"));
	const s5 = c.t(() => sm.appendServiceTierChange(null));
	const s6 = c.t(() => sm.appendServiceTierChange("auto"));
	const s7 = c.t(() => sm.appendServiceTierChange("nonsense"));
	const s8 = c.t(() => sm.appendServiceTierChange({ anthropic: "nope" }));
	return { leaves: [s1, u1, s2, s3, s4, s5, s6, s7, s8], note: "serviceTier is coerced per family; unknown values -> undefined" };
});

def("ttsr-union", async c => {
	const { sm } = c;
	const r1 = c.t(() => sm.appendTtsrInjection(["no-console-log", "prefer-const"]));
	const u1 = c.t(() => sm.appendMessage(user("go")));
	const r2 = c.t(() => sm.appendTtsrInjection(["prefer-const", "no-any"]));
	const a1 = c.t(() => sm.appendMessage(asst("done")));
	sm.branch(u1);
	const r3 = c.t(() => sm.appendTtsrInjection(["other-branch-rule"]));
	const r4 = c.t(() => sm.appendTtsrInjection([]));
	return { leaves: [r1, u1, r2, a1, r3, r4], note: "ttsr_injection rule names are unioned along the path in first-seen order" };
});

def("mode-change", async c => {
	const { sm } = c;
	const m1 = c.t(() => sm.appendModeChange("plan", { planFile: "/tmp/p/PLAN.md", step: 1 }));
	const u1 = c.t(() => sm.appendMessage(user("make a plan")));
	const a1 = c.t(() => sm.appendMessage(asst("plan written")));
	const m2 = c.t(() => sm.appendModeChange("none"));
	const u2 = c.t(() => sm.appendMessage(user("implement")));
	const m3 = c.t(() => sm.appendModeChange("vibe", {}));
	const m4 = c.t(() => sm.appendModeChange("plan"));
	return { leaves: [m1, u1, a1, m2, u2, m3, m4], note: "mode/modeData come from the last mode_change (data may be absent)" };
});

def("compaction-basic", async c => {
	const { sm } = c;
	c.t(() => sm.appendModelChange("anthropic/claude-sonnet-4-5"));
	const u1 = c.t(() => sm.appendMessage(user("step one")));
	const a1 = c.t(() => sm.appendMessage(asst("did one")));
	const u2 = c.t(() => sm.appendMessage(user("step two")));
	const a2 = c.t(() => sm.appendMessage(asst("did two")));
	const u3 = c.t(() => sm.appendMessage(user("step three")));
	const a3 = c.t(() => sm.appendMessage(asst("did three")));
	const cp = c.t(() =>
		sm.appendCompaction("## Summary\nSteps one and two done.", "Steps 1-2 done", u3, 12345, {
			tokensAfter: 2345,
			method: "summary",
			details: { readFiles: ["a.ts"], modifiedFiles: [] },
		}),
	);
	const u4 = c.t(() => sm.appendMessage(user("step four")));
	const a4 = c.t(() => sm.appendMessage(asst("did four")));
	return { leaves: [u2, a3, cp, u4, a4], note: "compaction keeps firstKeptEntryId..compaction, summary first" };
});

def("compaction-remote-openai", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("remote one")));
	const a1 = c.t(() => sm.appendMessage(asst("r1", { provider: "openai", model: "gpt-5.2", api: "openai-responses" })));
	const u2 = c.t(() => sm.appendMessage(user("remote two")));
	const a2 = c.t(() => sm.appendMessage(asst("r2", { provider: "openai", model: "gpt-5.2", api: "openai-responses" })));
	const cp = c.t(() =>
		sm.appendCompaction("remote summary", "remote", u2, 50000, {
			preserveData: {
				openaiRemoteCompaction: {
					provider: "openai",
					replacementHistory: [
						{ type: "message", role: "user", content: [{ type: "input_text", text: "remote two" }] },
						{ type: "compaction", encrypted_content: "gAAAA-opaque" },
					],
				},
			},
		}),
	);
	const u3 = c.t(() => sm.appendMessage(user("after remote")));
	const a3 = c.t(() => sm.appendMessage(asst("r3", { provider: "openai", model: "gpt-5.2", api: "openai-responses" })));
	// Second compaction with providerReplayThroughEntryId.
	const cp2 = c.t(() =>
		sm.appendCompaction("remote summary 2", undefined, u3, 60000, {
			providerReplayThroughEntryId: u3,
			preserveData: { openaiRemoteCompaction: { provider: "openai", replacementHistory: [] } },
		}),
	);
	const u4 = c.t(() => sm.appendMessage(user("after remote 2")));
	return { leaves: [a1, cp, u3, a3, cp2, u4], note: "valid openaiRemoteCompaction: providerPayload set, kept tail skipped; providerReplayThroughEntryId replays entries after it" };
});

def("compaction-remote-invalid", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("one")));
	const a1 = c.t(() => sm.appendMessage(asst("a")));
	const cp = c.t(() =>
		sm.appendCompaction("s1", "short1", u1, 100, {
			preserveData: { openaiRemoteCompaction: { provider: "openai", replacementHistory: [{ ok: 1 }, "not-a-record"] } },
		}),
	);
	const u2 = c.t(() => sm.appendMessage(user("two")));
	const cp2 = c.t(() =>
		sm.appendCompaction("s2", "short2", u2, 200, {
			preserveData: { openaiRemoteCompaction: { provider: "", replacementHistory: [] } },
		}),
	);
	const u3 = c.t(() => sm.appendMessage(user("three")));
	const cp3 = c.t(() =>
		sm.appendCompaction("s3", "short3", u3, 300, {
			preserveData: { openaiRemoteCompaction: { provider: "openai", replacementHistory: "nope" } },
		}),
	);
	return { leaves: [cp, u2, cp2, u3, cp3], note: "invalid remote payloads (non-record item, empty provider, non-array) are ignored" };
});

def("compaction-offpath-firstkept", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("root q")));
	const a1 = c.t(() => sm.appendMessage(asst("root a")));
	const u2 = c.t(() => sm.appendMessage(user("branch A q")));
	const a2 = c.t(() => sm.appendMessage(asst("branch A a")));
	sm.branch(a1);
	const u3 = c.t(() => sm.appendMessage(user("branch B q")));
	const cp = c.t(() => sm.appendCompaction("summary B (first kept on branch A)", undefined, u2, 999));
	const u4 = c.t(() => sm.appendMessage(user("after B compaction")));
	sm.branch(a1);
	const cp2 = c.t(() => sm.appendCompaction("summary C (first kept missing)", "C", "ffffffff", 500));
	const u5 = c.t(() => sm.appendMessage(user("after C compaction")));
	sm.branch(a1);
	const cp3 = c.t(() => sm.appendCompaction("summary D (first kept after the compaction)", "D", "", 10));
	const u6 = c.t(() => sm.appendMessage(user("after D")));
	return { leaves: [a2, u3, cp, u4, cp2, u5, cp3, u6], note: "firstKeptEntryId off the path / unknown / empty: nothing before the compaction is kept" };
});

def("compaction-multiple", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("m1")));
	c.t(() => sm.appendMessage(asst("m1a")));
	const u2 = c.t(() => sm.appendMessage(user("m2")));
	const a2 = c.t(() => sm.appendMessage(asst("m2a")));
	const cp1 = c.t(() => sm.appendCompaction("first summary", "first", u2, 1000));
	const u3 = c.t(() => sm.appendMessage(user("m3")));
	const a3 = c.t(() => sm.appendMessage(asst("m3a")));
	const cp2 = c.t(() => sm.appendCompaction("second summary", "second", cp1, 2000));
	const u4 = c.t(() => sm.appendMessage(user("m4")));
	const cp3 = c.t(() => sm.appendCompaction("third summary", "third", a2, 3000));
	const u5 = c.t(() => sm.appendMessage(user("m5")));
	return { leaves: [cp1, a3, cp2, u4, cp3, u5], note: "only the last compaction on the path counts; older compactions in the kept range emit nothing" };
});

def("reset-after-compaction", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("before")));
	c.t(() => sm.appendMessage(asst("before a")));
	const u2 = c.t(() => sm.appendMessage(user("kept")));
	const cp = c.t(() => sm.appendCompaction("sum", "s", u2, 10));
	const u3 = c.t(() => sm.appendMessage(user("after compaction")));
	const rb = c.t(() => sm.appendResetBoundary());
	const u4 = c.t(() => sm.appendMessage(user("after clear")));
	const a4 = c.t(() => sm.appendMessage(asst("fresh")));
	return { leaves: [cp, u3, rb, u4, a4], note: "reset_boundary after the latest compaction: emit only entries after the boundary" };
});

def("reset-before-compaction", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("old 1")));
	const a1 = c.t(() => sm.appendMessage(asst("old 1a")));
	const rb = c.t(() => sm.appendResetBoundary());
	const u2 = c.t(() => sm.appendMessage(user("new 1")));
	const a2 = c.t(() => sm.appendMessage(asst("new 1a")));
	const cp = c.t(() => sm.appendCompaction("sum kept from before reset", "s", u1, 10));
	const u3 = c.t(() => sm.appendMessage(user("new 2")));
	const rb2 = c.t(() => sm.appendResetBoundary());
	const rb3 = c.t(() => sm.appendResetBoundary());
	const u4 = c.t(() => sm.appendMessage(user("newest")));
	return { leaves: [rb, u2, cp, u3, rb2, rb3, u4], note: "compaction after the boundary wins (kept range may reach before the boundary); later boundary wins again" };
});

def("reset-only", async c => {
	const { sm } = c;
	c.t(() => sm.appendModelChange("anthropic/claude-sonnet-4-5"));
	c.t(() => sm.appendThinkingLevelChange("low"));
	const u1 = c.t(() => sm.appendMessage(user("pre")));
	const a1 = c.t(() => sm.appendMessage(asst("pre a")));
	const rb = c.t(() => sm.appendResetBoundary());
	const u2 = c.t(() => sm.appendMessage(user("post")));
	c.t(() => sm.appendModeChange("plan", { file: "p.md" }));
	const a2 = c.t(() => sm.appendMessage(asst("post a")));
	return { leaves: [a1, rb, u2, a2], note: "reset_boundary without compaction; settings still come from the whole path" };
});

def("title-slot", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("name this")));
	await c.flush();
	tick();
	await sm.setSessionName("Short title", "auto", "first-turn");
	const a1 = c.t(() => sm.appendMessage(asst("named")));
	tick();
	const long = `Überlänge ${"🦀 résumé 漢字 ".repeat(30)}tail`;
	await sm.setSessionName(long, "user");
	tick();
	await sm.setSessionName("ignored auto after user", "auto");
	const u2 = c.t(() => sm.appendMessage(user("after rename")));
	return { leaves: [u1, a1, u2], note: "256-byte title slot (truncated by code points), title_change entries; auto does not override user" };
});

def("title-slot-ascii-max", async c => {
	const { sm } = c;
	c.t(() => sm.appendMessage(user("x")));
	await c.flush();
	tick();
	await sm.setSessionName("T".repeat(400), "user");
	c.t(() => sm.appendMessage(asst("y")));
	return { note: "ASCII title longer than the slot: truncated to fill exactly 256 bytes" };
});

def("header-title-no-slot", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("legacy header title")));
	const a1 = c.t(() => sm.appendMessage(asst("ok")));
	await c.flush();
	// Legacy (pre-slot, O14-style) file: drop the slot, carry the title in the header.
	const ls = c.lines().filter(l => !l.startsWith('{"type":"title"'));
	const h = JSON.parse(ls[0]);
	const header = { type: "session", version: 3, id: "0a1b2c3d4e5f6071", title: "Header title", titleSource: "user", timestamp: h.timestamp, cwd: h.cwd };
	ls[0] = JSON.stringify(header);
	c.writeLines(ls);
	return { leaves: [u1, a1], note: "no title slot; header title/titleSource kept as-is; 16-hex snowflake id accepted" };
});

def("title-slot-overrides-header", async c => {
	const { sm } = c;
	c.t(() => sm.appendMessage(user("slot vs header")));
	await c.flush();
	tick();
	await sm.setSessionName("Slot title", "auto");
	c.t(() => sm.appendMessage(asst("ok")));
	await c.flush();
	const ls = c.lines();
	const h = JSON.parse(ls[1]);
	h.title = "Stale header title";
	h.titleSource = "user";
	ls[1] = JSON.stringify(h);
	c.writeLines(ls);
	return { note: "a valid slot replaces header title/titleSource on load" };
});

def("title-slot-empty-title", async c => {
	const { sm } = c;
	c.t(() => sm.appendMessage(user("no title yet")));
	await c.flush();
	const ls = c.lines();
	const h = JSON.parse(ls[1]);
	h.title = "Header title removed by empty slot";
	h.titleSource = "auto";
	ls[1] = JSON.stringify(h);
	c.writeLines(ls);
	return { note: "slot with empty title and no source deletes header title/titleSource" };
});

def("title-slot-invalid", async c => {
	const { sm } = c;
	c.t(() => sm.appendMessage(user("bad slot")));
	c.t(() => sm.appendMessage(asst("ok")));
	await c.flush();
	const ls = c.lines();
	const slot = JSON.parse(ls[0]);
	slot.v = 2;
	ls[0] = JSON.stringify(slot);
	c.writeLines(ls);
	return { note: "first line with v:2 is not a slot, so it is the first entry -> invalid header, open throws" };
});

def("invalid-header", async c => {
	const { sm } = c;
	c.t(() => sm.appendMessage(user("x")));
	await c.flush();
	const ls = c.lines().slice(1);
	const h = JSON.parse(ls[0]);
	delete h.id;
	ls[0] = JSON.stringify(h);
	c.writeLines(ls);
	return { note: "header without string id -> invalidHeader, open throws, file untouched" };
});

def("garbage-before-header", async c => {
	const { sm } = c;
	c.t(() => sm.appendMessage(user("x")));
	c.t(() => sm.appendMessage(asst("y")));
	await c.flush();
	const ls = c.lines().slice(1);
	c.writeLines(["this is not json", ...ls]);
	return { note: "unparseable line before the header is skipped (malformed) and the header is then entries[0]" };
});

def("header-only", async c => {
	await c.flush();
	return { note: "slot + header, no entries: empty context" };
});

def("credential-pin-model-usage", async c => {
	const { sm } = c;
	const p1 = c.t(() => sm.appendCredentialPin("anthropic", "acct-hash-1"));
	const u1 = c.t(() => sm.appendMessage(user("pin")));
	const a1 = c.t(() => sm.appendMessage(asst("pinned")));
	const mu = c.t(() =>
		sm.appendModelUsage(
			{ purpose: "title", role: "smol", api: "anthropic-messages", provider: "anthropic", model: "claude-haiku-4-5", usage: usage(10, 5), stopReason: "stop" },
			{ sessionId: sm.getSessionId(), parentId: u1 },
		),
	);
	const p2 = c.t(() => sm.appendCredentialPin("anthropic", "acct-hash-2"));
	const u2 = c.t(() => sm.appendMessage(user("more")));
	return { leaves: [p1, a1, mu, p2, u2], note: "credential_pin / model_usage never enter context; model_usage is a side child" };
});

def("archive-entries", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("archive me")));
	const a1 = c.t(() => sm.appendMessage(asst("ok")));
	sm.branch(u1);
	const u2 = c.t(() => sm.appendMessage(user("other branch")));
	const ar = c.t(() => sm.appendCustomEntry("placeholder-archive-1"));
	const ar2 = c.t(() => sm.appendCustomEntry("placeholder-archive-2"));
	const u3 = c.t(() => sm.appendMessage(user("after archive")));
	await c.flush();
	// Rewrite the two placeholders into the newer upstream `archive` entry shape
	// (not known to 18.3.4: an unknown entry type is a plain path node).
	c.editEntries(e => {
		if (e.id === ar) return { type: "archive", id: e.id, parentId: e.parentId, timestamp: e.timestamp, targetId: a1, archived: true };
		if (e.id === ar2) return { type: "archive", id: e.id, parentId: e.parentId, timestamp: e.timestamp, targetId: a1, archived: false };
		return undefined;
	});
	return { leaves: [a1, u2, ar, ar2, u3], note: "archive entries (newer upstream type) are ignored by 18.3.4 context building" };
});

def("custom-message-attribution", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("ext")));
	const c1 = c.t(() => sm.appendCustomMessageEntry("my-ext", "text from extension", true, { k: 1 }, "user"));
	const c2 = c.t(() => sm.appendCustomMessageEntry("my-ext", [{ type: "text", text: "hidden" }], false, undefined, "agent"));
	const c3 = c.t(() => sm.appendCustomMessageEntry("prewalk-plan", "prewalk plan is not replayed", false));
	const c4 = c.t(() => sm.appendCustomMessageEntry("vibe-mode-context", "vibe context is not replayed", false));
	const c5 = c.t(() => sm.appendCustomMessageEntry("skill-prompt", "skill body", true, { skill: "x" }, "user"));
	const c6 = c.t(() => sm.appendCustomMessageEntry("my-ext", "explicit ts", true, null, "agent", RealDate.UTC(2026, 0, 2, 3, 4, 5)));
	const c7 = c.t(() => sm.appendCustomMessageEntry("my-ext", "no attribution", true));
	const c8 = c.t(() => sm.appendCustomMessageEntry("odd-a", "attr odd", true));
	const c9 = c.t(() => sm.appendCustomMessageEntry("odd-b", "display odd", true));
	const c10 = c.t(() => sm.appendCustomMessageEntry("odd-c", "content odd", true));
	const c11 = c.t(() => sm.appendCustomMessageEntry("odd-d", "type odd", true));
	const c12 = c.t(() => sm.appendCustomMessageEntry("odd-e", "bad timestamp", true));
	await c.flush();
	c.editEntries(e => {
		if (e.id === c7) {
			delete e.attribution;
			return e;
		}
		if (e.id === c8) return { ...e, attribution: "robot" };
		if (e.id === c9) return { ...e, display: "yes" };
		if (e.id === c10) return { ...e, content: 42 };
		if (e.id === c11) return { ...e, customType: "" };
		if (e.id === c12) return { ...e, timestamp: "not a date" };
		return undefined;
	});
	return { leaves: [c1, c2, c4, c6, c7, c9, c10, c12], note: "custom_message -> role custom; attribution normalization; prewalk/vibe types skipped; invalid content dropped" };
});

def("branch-summary", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("trunk")));
	const a1 = c.t(() => sm.appendMessage(asst("trunk a")));
	const u2 = c.t(() => sm.appendMessage(user("abandoned path")));
	c.t(() => sm.appendMessage(asst("abandoned a")));
	const b1 = c.t(() => sm.branchWithSummary(a1, "We tried X; it failed.", { readFiles: [] }));
	const u3 = c.t(() => sm.appendMessage(user("new direction")));
	const b2 = c.t(() => sm.branchWithSummary(u3, ""));
	const u4 = c.t(() => sm.appendMessage(user("after empty summary")));
	const b3 = c.t(() => sm.branchWithSummary(null, "Fresh start summary", undefined, true));
	const u5 = c.t(() => sm.appendMessage(user("second root")));
	return { leaves: [u2, b1, u3, b2, u4, b3, u5], note: "branch_summary -> branchSummary message (empty summary skipped); null branch point -> new root, fromId root" };
});

def("labels", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("label me")));
	const a1 = c.t(() => sm.appendMessage(asst("labelled")));
	const l1 = c.t(() => sm.appendLabelChange(u1, "important"));
	const u2 = c.t(() => sm.appendMessage(user("more")));
	const l2 = c.t(() => sm.appendLabelChange(u1, undefined));
	const l3 = c.t(() => sm.appendLabelChange(l2, "label on a label"));
	return { leaves: [a1, l1, u2, l2, l3], note: "labels are path nodes that never enter context" };
});

def("message-roles", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("roles")));
	const b1 = c.t(() =>
		sm.appendMessage({ role: "bashExecution", command: "ls -la", output: "a\nb\n", exitCode: 0, cancelled: false, truncated: false, timestamp: mts() }),
	);
	const b2 = c.t(() =>
		sm.appendMessage({ role: "bashExecution", command: "secret", output: "x", exitCode: 1, cancelled: false, truncated: false, excludeFromContext: true, timestamp: mts() }),
	);
	const p1 = c.t(() =>
		sm.appendMessage({ role: "pythonExecution", code: "print(1)", output: "1\n", exitCode: 0, cancelled: false, truncated: false, timestamp: mts() }),
	);
	const f1 = c.t(() =>
		sm.appendMessage({ role: "fileMention", files: [{ path: "src/a.ts", content: "export const a = 1;\n", lineCount: 2 }], timestamp: mts() }),
	);
	const d1 = c.t(() => sm.appendMessage({ role: "developer", content: [{ type: "text", text: "developer note" }], timestamp: mts() }));
	const h1 = c.t(() =>
		sm.appendMessage({ role: "hookMessage", customType: "legacy-hook", content: "hook text", display: true, timestamp: mts() }),
	);
	const cu = c.t(() =>
		sm.appendMessage({ role: "custom", customType: "ext", content: "custom role message", display: false, details: { a: 1 }, timestamp: mts() }),
	);
	const a1 = c.t(() => sm.appendMessage(asst("seen all roles")));
	return { leaves: [b1, b2, p1, f1, d1, h1, cu, a1], note: "stored messages of every role pass through unchanged (v3 file: hookMessage is not renamed)" };
});

def("error-and-retry-turns", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("q")));
	const a1 = c.t(() => sm.appendMessage(asst([], { stopReason: "error", errorMessage: "413 payload too large" })));
	const a2 = c.t(() => sm.appendMessage(asst("partial before retry", { retryRecovery: true })));
	const a3 = c.t(() => sm.appendMessage(asst([{ type: "text", text: "  " }, { type: "thinking", thinking: "" }], { stopReason: "error", errorMessage: "overloaded" })));
	const a4 = c.t(() => sm.appendMessage(asst("answer after retry")));
	const u2 = c.t(() => sm.appendMessage(user("q2")));
	const a5 = c.t(() => sm.appendMessage(asst("streamed text then error", { stopReason: "error", errorMessage: "stream reset" })));
	const l1 = c.t(() => sm.appendLabelChange(a5, "err"));
	const u3 = c.t(() => sm.appendMessage(user("q3")));
	const a6 = c.t(() => sm.appendMessage(asst([{ type: "thinking", thinking: "hmm, I was thinking" }], { stopReason: "aborted" })));
	const c1 = c.t(() => sm.appendCustomMessageEntry("interrupted-thinking", "[interrupted reasoning preserved]", false, { interruptedAt: 1, provider: "anthropic", model: "claude-sonnet-4-5", blockCount: 1 }));
	const u4 = c.t(() => sm.appendMessage(user("q4")));
	const a7 = c.t(() => sm.appendMessage(asst([{ type: "text", text: "let me run" }, call("call_ab1"), call("call_ab2", "bash", { command: "ls" })], { stopReason: "aborted" })));
	const r1 = c.t(() => sm.appendMessage(result("call_ab1", "aborted", { isError: true })));
	const r2 = c.t(() => sm.appendMessage(result("call_ab2", "aborted", { isError: true, toolName: "bash" })));
	const u5 = c.t(() => sm.appendMessage(user("q5")));
	return { leaves: [a1, a2, a3, a4, a5, l1, a6, c1, a7, r2, u5], note: "retryRecovery and empty error turns skipped; aborted/error turns dropped with their paired results unless followed by interrupted-thinking" };
});

def("dangling-tool-calls", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("read two files")));
	const a1 = c.t(() =>
		sm.appendMessage(
			asst(
				[
					{ type: "thinking", thinking: "plan reads", thinkingSignature: "sig-abc" },
					{ type: "redactedThinking", data: "ENCRYPTED" },
					{ type: "text", text: "reading" },
					call("toolu_01"),
					call("toolu_02", "read", { path: "b.md" }),
				],
				{ stopReason: "toolUse" },
			),
		),
	);
	const r1 = c.t(() => sm.appendMessage(result("toolu_01", "content of README")));
	const a2 = c.t(() => sm.appendMessage(asst([call("toolu_03", "bash", { command: "pwd" })], { stopReason: "toolUse" })));
	const u2 = c.t(() => sm.appendMessage(user("never mind")));
	const a3 = c.t(() => sm.appendMessage(asst([{ type: "thinking", thinking: "last", thinkingSignature: "sig-z" }, call("toolu_04")], { stopReason: "toolUse" })));
	return { leaves: [a1, r1, a2, u2, a3], note: "toolCall blocks without a toolResult on the path are stripped (thinking signatures cleared, redactedThinking dropped, empty turns removed)" };
});

def("tool-results-on-sibling-branch", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("run it")));
	const a1 = c.t(() => sm.appendMessage(asst([{ type: "text", text: "running" }, call("call_s1", "bash", { command: "make" })], { stopReason: "toolUse" })));
	const r1 = c.t(() => sm.appendMessage(result("call_s1", "build ok", { toolName: "bash" })));
	const a2 = c.t(() => sm.appendMessage(asst("built")));
	sm.branch(a1);
	const u2 = c.t(() => sm.appendMessage(user("different follow-up without the result")));
	const a3 = c.t(() => sm.appendMessage(asst("ok")));
	return { leaves: [a1, r1, a2, u2, a3], note: "result lives on a sibling branch: the call is stripped on this branch" };
});

def("blob-images", async c => {
	const { sm } = c;
	const big = pngBase64(1200, 3);
	const small = pngBase64(40, 9);
	const u1 = c.t(() =>
		sm.appendMessage(
			user([
				{ type: "text", text: "look at these" },
				{ type: "image", mimeType: "image/png", data: big },
				{ type: "image", mimeType: "image/png", data: small },
			]),
		),
	);
	const a1 = c.t(() => sm.appendMessage(asst([{ type: "text", text: "reading screenshot" }, call("call_img", "read", { path: "shot.png" })], { stopReason: "toolUse" })));
	const r1 = c.t(() =>
		sm.appendMessage({
			role: "toolResult",
			toolCallId: "call_img",
			toolName: "read",
			content: [
				{ type: "text", text: "image file" },
				{ type: "image", mimeType: "image/jpeg", data: pngBase64(900, 77) },
			],
			details: { images: [{ mimeType: "image/png", data: pngBase64(1000, 5) }] },
			isError: false,
			timestamp: mts(),
		}),
	);
	const c1 = c.t(() =>
		sm.appendCustomMessageEntry("screenshot-ext", [{ type: "text", text: "ext image" }, { type: "image", mimeType: "image/png", data: pngBase64(1100, 11) }], true),
	);
	const dataUrl = `data:image/png;base64,${pngBase64(1300, 21)}`;
	const a2 = c.t(() =>
		sm.appendMessage(
			asst("described", {
				provider: "openai",
				model: "gpt-5.2",
				api: "openai-responses",
				providerPayload: {
					type: "openaiResponsesHistory",
					provider: "openai",
					items: [{ type: "message", role: "user", content: [{ type: "input_image", image_url: dataUrl }] }],
				},
			}),
		),
	);
	return { leaves: [u1, r1, c1, a2], note: "images >= 1024 base64 chars are externalized to blobs/<sha256> and resolved on load (data URLs as UTF-8 text)" };
});

def("blob-missing-and-malformed", async c => {
	const { sm } = c;
	const u1 = c.t(() =>
		sm.appendMessage(
			user([
				{ type: "text", text: "refs" },
				{ type: "image", mimeType: "image/png", data: "blob:sha256:0000000000000000000000000000000000000000000000000000000000000000" },
				{ type: "image", mimeType: "image/png", data: "blob:sha256:ABCDEF" },
				{ type: "image", mimeType: "image/png", data: "blob:sha256:../../etc/passwd" },
			]),
		),
	);
	const a1 = c.t(() =>
		sm.appendMessage(
			asst("x", {
				details: { note: "blob:sha256:1111111111111111111111111111111111111111111111111111111111111111" },
			}),
		),
	);
	return { leaves: [u1], note: "missing blob and malformed refs are left in place as strings" };
});

def("branches-and-roots", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("root 1")));
	const a1 = c.t(() => sm.appendMessage(asst("r1a")));
	const u2 = c.t(() => sm.appendMessage(user("branch 1")));
	const a2 = c.t(() => sm.appendMessage(asst("b1a")));
	sm.branch(a1);
	const u3 = c.t(() => sm.appendMessage(user("branch 2")));
	const a3 = c.t(() => sm.appendMessage(asst("b2a")));
	sm.branch(u1);
	const a4 = c.t(() => sm.appendMessage(asst("alt answer to root 1")));
	sm.resetLeaf();
	const u5 = c.t(() => sm.appendMessage(user("second root")));
	const a5 = c.t(() => sm.appendMessage(asst("second root a")));
	sm.branch(a2);
	const u6 = c.t(() => sm.appendMessage(user("back on branch 1 (last line)")));
	return { leaves: [a2, a3, a4, u5, a5, u6], note: "several branches and a second root; default leaf = last line" };
});

def("parent-cycle", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("cycle 1")));
	const a1 = c.t(() => sm.appendMessage(asst("cycle 2")));
	const u2 = c.t(() => sm.appendMessage(user("cycle 3")));
	const a2 = c.t(() => sm.appendMessage(asst("cycle 4")));
	await c.flush();
	c.editEntries(e => (e.id === u1 ? { ...e, parentId: a2 } : undefined));
	return { leaves: [u1, a1, u2, a2], note: "parent cycle u1->a2->u2->a1->u1: the walk stops at the first repeated id" };
});

def("self-parent", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("self")));
	const a1 = c.t(() => sm.appendMessage(asst("points at itself")));
	const u2 = c.t(() => sm.appendMessage(user("child")));
	await c.flush();
	c.editEntries(e => (e.id === a1 ? { ...e, parentId: a1 } : undefined));
	return { leaves: [u1, a1, u2], note: "entry whose parentId is its own id" };
});

def("missing-parent", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("lost ancestor")));
	const a1 = c.t(() => sm.appendMessage(asst("orphaned below")));
	const u2 = c.t(() => sm.appendMessage(user("tail")));
	const a2 = c.t(() => sm.appendMessage(asst("tail a")));
	await c.flush();
	c.editEntries(e => (e.id === u2 ? { ...e, parentId: "deadbeef" } : undefined));
	return { leaves: [a1, u2, a2], note: "unknown parentId truncates the path silently" };
});

def("duplicate-ids", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("dup first")));
	const a1 = c.t(() => sm.appendMessage(asst("dup a")));
	const u2 = c.t(() => sm.appendMessage(user("dup second")));
	const a2 = c.t(() => sm.appendMessage(asst("dup b")));
	await c.flush();
	c.editEntries(e => (e.id === u2 ? { ...e, id: u1, parentId: a1 } : e.id === a2 ? { ...e, parentId: u1 } : undefined));
	return { leaves: [u1, a1, a2], note: "two entries share an id: the later one wins in the id map (creates a cycle through it)" };
});

def("unicode", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("héllo wörld 🦀👩‍💻 漢字 العربية עברית e\u0301 \u2028line\u2029para \u0000nul \u001b[31mred")));
	const a1 = c.t(() => sm.appendMessage(asst("réponse 🚀 \ud83d\ude00 and a lone surrogate \ud800 end")));
	const c1 = c.t(() => sm.appendCustomMessageEntry("ünï", [{ type: "text", text: "ツール 🔧" }], true));
	const b1 = c.t(() => sm.branchWithSummary(u1, "요약 summary 📝"));
	return { leaves: [u1, a1, c1, b1], note: "unicode, control characters, U+2028/2029, lone surrogate" };
});

def("lenient-jsonl", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("lenient 1")));
	const a1 = c.t(() => sm.appendMessage(asst("lenient 2")));
	const u2 = c.t(() => sm.appendMessage(user("lenient 3 (pretty printed)")));
	const a2 = c.t(() => sm.appendMessage(asst("lenient 4 (glued after 3)")));
	const u3 = c.t(() => sm.appendMessage(user("lenient 5 (after garbage)")));
	const a3 = c.t(() => sm.appendMessage(asst("lenient 6 (CRLF)")));
	const u4 = c.t(() => sm.appendMessage(user("lenient 7 (truncated tail)")));
	await c.flush();
	const ls = c.lines();
	const out: string[] = [];
	for (const l of ls) {
		const o = JSON.parse(l);
		if (o.id === u2) out.push(JSON.stringify(o, null, 2));
		else if (o.id === a2) out[out.length - 1] += l; // glue onto the pretty block's last line
		else if (o.id === u3) out.push("", "   ", "{\"type\":\"message\",", "not json at all", l);
		else if (o.id === a3) out.push(`${l}\r`);
		else if (o.id === u4) out.push(l.slice(0, l.length - 20));
		else out.push(l);
	}
	c.writeLines([], { raw: out.join("\n") });
	return { leaves: [a1, u2, u3, a3], note: "multi-line object accepted; glued second object lost; garbage lines skipped; CRLF fine; truncated tail dropped" };
});

def("bom", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("bom")));
	c.t(() => sm.appendMessage(asst("bom a")));
	await c.flush();
	const ls = c.lines().slice(1); // no slot
	c.writeLines([], { raw: `\ufeff${ls.join("\n")}\n` });
	return { leaves: [u1], note: "UTF-8 BOM before the header line" };
});

def("bom-with-slot", async c => {
	const { sm } = c;
	c.t(() => sm.appendMessage(user("bom slot")));
	c.t(() => sm.appendMessage(asst("bom slot a")));
	await c.flush();
	tick();
	await sm.setSessionName("Slot after BOM", "user");
	await c.flush();
	const raw = fs.readFileSync(c.file(), "utf8");
	c.writeLines([], { raw: `\ufeff${raw}` });
	return { note: "BOM before a title slot" };
});

def("non-object-lines", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("n1")));
	const a1 = c.t(() => sm.appendMessage(asst("n2")));
	const u2 = c.t(() => sm.appendMessage(user("n3")));
	await c.flush();
	const ls = c.lines();
	const i = ls.findIndex(l => l.includes(`"id":"${a1}"`));
	ls.splice(i, 0, "42", '"a string"', "[1,2,3]", "true");
	c.writeLines(ls);
	return { leaves: [u1, a1, u2], note: "non-object JSON values are kept as entries (no id); they do not break context building" };
});

def("non-object-last-line", async c => {
	const { sm } = c;
	c.t(() => sm.appendMessage(user("n1")));
	c.t(() => sm.appendMessage(asst("n2")));
	await c.flush();
	const ls = c.lines();
	ls.push("7");
	c.writeLines(ls);
	return { note: "a number as the last line becomes the default leaf: empty messages" };
});

def("migration-v1", async c => {
	const { sm } = c;
	c.t(() => sm.appendMessage(user("v1 q1")));
	c.t(() => sm.appendMessage(asst("v1 a1")));
	c.t(() => sm.appendMessage(user("v1 q2")));
	c.t(() => sm.appendMessage(asst("v1 a2")));
	c.t(() => sm.appendCompaction("v1 summary", undefined, "x", 777));
	c.t(() => sm.appendMessage(user("v1 q3")));
	await c.flush();
	const ls = c.lines().slice(1);
	const out: string[] = [];
	for (const l of ls) {
		const o = JSON.parse(l);
		if (o.type === "session") {
			delete o.version;
			out.push(JSON.stringify(o));
			continue;
		}
		delete o.id;
		delete o.parentId;
		if (o.type === "compaction") {
			delete o.firstKeptEntryId;
			o.firstKeptEntryIndex = 3; // header=0, q1=1, a1=2, q2=3
		}
		out.push(JSON.stringify(o));
	}
	c.writeLines(out);
	return { note: "v1 file: ids generated at load (random), firstKeptEntryIndex counts the header as index 0; only the default leaf is meaningful" };
});

def("migration-v2-hookmessage", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("v2")));
	const h1 = c.t(() => sm.appendMessage({ role: "hookMessage", customType: "old-hook", content: "from a hook", display: true, timestamp: mts() }));
	const a1 = c.t(() => sm.appendMessage(asst("v2 a")));
	await c.flush();
	const ls = c.lines().slice(1);
	const h = JSON.parse(ls[0]);
	h.version = 2;
	ls[0] = JSON.stringify(h);
	c.writeLines(ls);
	return { leaves: [u1, h1, a1], note: "v2 file: message role hookMessage renamed to custom on load" };
});

def("context-notes", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("take notes")));
	const n1 = c.t(() => sm.appendCustomEntry("experimental_context_notes", { version: 1, text: "- task: parity & <tags> \"quoted\" 'single' {{curly}} MUST\n- next -> write spec...\n\n| a | b |\n|---|---|\n| 1 | 2 |\n   " }));
	const a1 = c.t(() => sm.appendMessage(asst("noted")));
	const n2 = c.t(() => sm.appendCustomEntry("experimental_context_notes", { version: 1, text: "invalid: extra key", extra: true }));
	const u2 = c.t(() => sm.appendMessage(user("more")));
	const n3 = c.t(() => sm.appendCustomEntry("experimental_context_notes", { version: 1, text: "" }));
	const u3 = c.t(() => sm.appendMessage(user("cleared")));
	sm.branch(u2);
	const rb = c.t(() => sm.appendResetBoundary());
	const u4 = c.t(() => sm.appendMessage(user("after reset, notes hidden")));
	return { leaves: [n1, a1, n2, u2, n3, u3, rb], note: "experimental_context_notes custom entries inject a hidden custom message at index 0" };
});

def("github-copilot-sanitize", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("copilot")));
	const a1 = c.t(() =>
		sm.appendMessage(
			asst([{ type: "thinking", thinking: "reasoning", thinkingSignature: "{\"id\":\"rs_1\"}" }, { type: "text", text: "copilot answer" }], {
				provider: "github-copilot",
				model: "gpt-5.2",
				api: "openai-responses",
				providerPayload: { type: "openaiResponsesHistory", provider: "github-copilot", items: [{ type: "reasoning", id: "rs_1" }] },
			}),
		),
	);
	const u2 = c.t(() => sm.appendMessage(user("openai")));
	const a2 = c.t(() =>
		sm.appendMessage(
			asst([{ type: "thinking", thinking: "kept", thinkingSignature: "{\"id\":\"rs_2\"}" }, { type: "text", text: "openai answer" }], {
				provider: "openai",
				model: "gpt-5.2",
				api: "openai-responses",
				providerPayload: { type: "openaiResponsesHistory", provider: "openai", items: [{ type: "reasoning", id: "rs_2" }] },
			}),
		),
	);
	return { leaves: [a1, a2], note: "SessionManager.open strips providerPayload/thinkingSignature from github-copilot Responses assistants (free function does not)" };
});

def("anthropic-compaction", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("long work")));
	const a1 = c.t(() => sm.appendMessage(asst("worked")));
	const u2 = c.t(() => sm.appendMessage(user("continue")));
	const a2 = c.t(() => sm.appendMessage(asst("continued")));
	const cp = c.t(() =>
		sm.appendCompaction("server-side summary", "server", u2, 150000, {
			preserveData: { anthropicCompaction: { provider: "anthropic", content: "opaque compaction text", signature: "sig", model: "claude-sonnet-4-5" } },
		}),
	);
	const u3 = c.t(() => sm.appendMessage(user("after server compaction")));
	const cp2 = c.t(() =>
		sm.appendCompaction("snapshot summary", "snap", "", 160000, {
			providerReplayThroughEntryId: u2,
			preserveData: { anthropicCompaction: { provider: "anthropic", content: "second opaque" } },
		}),
	);
	const u4 = c.t(() => sm.appendMessage(user("after snapshot")));
	return { leaves: [cp, u3, cp2, u4], note: "anthropicCompaction preserveData -> providerPayload type anthropicCompaction and historyRewriteAt = first retained entry time - 1" };
});

def("context-rollover", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("original request: build X")));
	const a1 = c.t(() => sm.appendMessage(asst("working on X")));
	const a2 = c.t(() => sm.appendMessage(asst("still working")));
	const a3 = c.t(() => sm.appendMessage(asst("halfway")));
	const cp = c.t(() => sm.appendCompaction("rollover summary", "rollover", a3, 100000, { details: { kind: "experimental-context-rollover" } }));
	const a4 = c.t(() => sm.appendMessage(asst("rolled over")));
	const sk = c.t(() => sm.appendCustomMessageEntry("skill-prompt", "run the skill", true, { skill: "x" }, "user"));
	const a5 = c.t(() => sm.appendMessage(asst("skill running")));
	const a6 = c.t(() => sm.appendMessage(asst("skill still running")));
	const cp2 = c.t(() => sm.appendCompaction("rollover 2", "rollover 2", a6, 110000, { details: { kind: "experimental-context-rollover" } }));
	const u2 = c.t(() => sm.appendMessage(user("plain request")));
	const a7 = c.t(() => sm.appendMessage(asst("a7")));
	const cp3 = c.t(() => sm.appendCompaction("rollover 3 (request inside kept tail)", "r3", u2, 120000, { details: { kind: "experimental-context-rollover" } }));
	sm.branch(a3);
	const cp4 = c.t(() => sm.appendCompaction("plain compaction, same cut", "plain", a3, 100000));
	return { leaves: [cp, a4, cp2, u2, cp3, cp4], note: "experimental-context-rollover compaction re-emits the latest user request (user message or user-attributed skill/collab prompt) when it lies before firstKeptEntryId" };
});

def("large-string-truncation", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user(`${"x".repeat(500_010)}`)));
	const a1 = c.t(() => sm.appendMessage(asst("big input seen")));
	return { note: "strings over 500000 chars are cut with a notice by the writer; context shows the stored text" };
});

def("fork-like-session-init", async c => {
	const { sm } = c;
	const s1 = c.t(() => sm.appendSessionInit({ systemPrompt: "You are a subagent.", task: "Find TODOs", tools: ["read", "grep"], agent: "explore", readOnly: true }));
	const u1 = c.t(() => sm.appendMessage(user("Find TODOs")));
	const a1 = c.t(() => sm.appendMessage(asst("3 TODOs")));
	const cu = c.t(() => sm.appendCustomEntry("my-state", { counter: 3 }));
	return { leaves: [s1, u1, a1, cu], note: "session_init and custom entries never enter context" };
});

def("null-line", async c => {
	const { sm } = c;
	c.t(() => sm.appendMessage(user("before null")));
	c.t(() => sm.appendMessage(asst("after null")));
	await c.flush();
	const ls = c.lines();
	ls.splice(3, 0, "null");
	c.writeLines(ls);
	return { note: "a JSON null line parses as an entry; building the entry index dereferences it and open throws" };
});

def("empty-file", async c => {
	c.writeLines([], { raw: "" });
	return { note: "0-byte file: no header, not malformed -> open starts a NEW session in that file (rewrites it)" };
});

def("only-garbage", async c => {
	c.writeLines(["garbage", "more garbage"]);
	return { note: "nothing parses but malformed > 0 -> invalidHeader, open throws" };
});

def("second-header-line", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("before the stray header")));
	const a1 = c.t(() => sm.appendMessage(asst("a1")));
	await c.flush();
	const ls = c.lines();
	ls.push(ls[1]); // the header line again, appended at the end (e.g. a botched concatenation)
	c.writeLines(ls);
	return { leaves: [u1, a1], note: "a later type:session line is an ordinary entry: it is the default leaf (no parentId) so the resumed context is empty" };
});

def("null-id-last", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("q")));
	const a1 = c.t(() => sm.appendMessage(asst("a")));
	const l1 = c.t(() => sm.appendLabelChange(u1, "x"));
	await c.flush();
	c.editEntries(e => (e.id === l1 ? { ...e, id: null } : undefined));
	return { leaves: [u1, a1], note: "last entry has id null: the resume leaf is null, so the resumed context is empty" };
});

def("no-id-last", async c => {
	const { sm } = c;
	const u1 = c.t(() => sm.appendMessage(user("q")));
	const a1 = c.t(() => sm.appendMessage(asst("a")));
	const u2 = c.t(() => sm.appendMessage(user("last, id removed")));
	await c.flush();
	c.editEntries(e => {
		if (e.id !== u2) return undefined;
		const { id, ...rest } = e;
		return rest;
	});
	return { leaves: [u1, a1], note: "last entry has no id: the resume leaf is undefined, so buildSessionContext falls back to the last entry and walks its parents" };
});

// ---------------------------------------------------------------------------
// Build all fixtures.
// ---------------------------------------------------------------------------
const built: { name: string; file: string; built: Built }[] = [];
let n = 0;
for (const d of defs) {
	n++;
	const name = `${String(n).padStart(3, "0")}-${d.name}`;
	setClock(`2026-05-${String(1 + (n % 28)).padStart(2, "0")}T10:00:00.000Z`);
	msgTs = fakeNow;
	const dir = path.join(workSessions, name);
	fs.mkdirSync(dir, { recursive: true });
	const sm = SessionManager.create(`/home/dev/proj-${d.name}`, dir);
	const ctx = makeCtx(sm);
	const b = ((await d.build(ctx)) ?? {}) as Built;
	await ctx.flush().catch(() => {});
	const file = ctx.file();
	const dest = path.join(sessionsOut, `${name}.jsonl`);
	fs.copyFileSync(file, dest);
	built.push({ name, file: dest, built: b });
}

// Copy every blob referenced by a committed session (canonical hash files only).
const agentBlobs = path.join(agentDir, "blobs");
for (const b of built) {
	const text = fs.readFileSync(b.file, "utf8");
	for (const m of text.matchAll(/blob:sha256:([a-f0-9]{64})/g)) {
		const src = path.join(agentBlobs, m[1]);
		if (fs.existsSync(src)) fs.copyFileSync(src, path.join(blobsOut, m[1]));
	}
}

// ---------------------------------------------------------------------------
// Load every fixture back and record expected contexts.
// ---------------------------------------------------------------------------
// Fresh blob store containing only the committed blobs.
fs.rmSync(agentBlobs, { recursive: true, force: true });
fs.mkdirSync(agentBlobs, { recursive: true });
for (const f of fs.readdirSync(blobsOut)) fs.copyFileSync(path.join(blobsOut, f), path.join(agentBlobs, f));

function plain(v: unknown): unknown {
	return JSON.parse(JSON.stringify(v));
}

const loadDir = path.join(scratch, "load");
fs.mkdirSync(loadDir, { recursive: true });
const summary: string[] = [];
for (const b of built) {
	const rel = `sessions/${path.basename(b.file)}`;
	const copy = path.join(loadDir, path.basename(b.file));
	fs.copyFileSync(b.file, copy);
	const before = fs.readFileSync(copy);
	const load = await loadSessionFile(copy);
	const loadInfo: Record<string, unknown> = {
		malformedRecords: load.malformedRecords,
		invalidHeader: load.invalidHeader,
		titleSlot: load.titleSlot ?? null,
		entryCount: load.entries.length,
		header: load.entries[0] && typeof load.entries[0] === "object" ? plain(load.entries[0]) : null,
		entryIds: load.entries.slice(1).map((e: any) => (e && typeof e === "object" ? (e.id ?? null) : null)),
		entryTypes: load.entries.slice(1).map((e: any) => (e && typeof e === "object" ? (e.type ?? null) : typeof e)),
	};
	const cases: any[] = [];
	let openError: string | null = null;
	let sm: any = null;
	try {
		sm = await SessionManager.open(copy, loadDir);
	} catch (err) {
		openError = err instanceof Error ? err.message.replaceAll(copy, `<file>`) : String(err);
	}
	if (sm) {
		loadInfo.defaultLeafId = sm.getLeafId();
		loadInfo.headerAfterOpen = plain(sm.getHeader());
		loadInfo.sessionName = sm.getSessionName() ?? null;
		cases.push({ leaf: null, via: "SessionManager", context: plain(sm.buildSessionContext()) });
		for (const leaf of b.built.leaves ?? []) {
			if (!sm.getEntry(leaf)) {
				cases.push({ leaf, via: "SessionManager", error: "leaf not found after load" });
				continue;
			}
			sm.branch(leaf);
			cases.push({ leaf, via: "SessionManager", context: plain(sm.buildSessionContext()) });
		}
	}
	// Free-function path (loader + migrate + blob resolution + buildSessionContext),
	// used for leaves SessionManager cannot express and as a cross-check.
	const free = await loadSessionFile(copy);
	let crossCheck: string | null = null;
	let freeError: string | null = null;
	if (!free.invalidHeader && free.entries.length > 0) try {
		migrateToCurrentVersion(free.entries);
		await resolveBlobRefsInEntries(free.entries, new BlobStoreCtor(agentBlobs));
		const entries = free.entries.slice(1);
		if (sm) {
			const a = JSON.stringify(plain(buildSessionContext(entries, undefined)));
			const b2 = JSON.stringify(cases[0].context);
			crossCheck = a === b2 ? "free buildSessionContext(default leaf) == SessionManager" : "free buildSessionContext(default leaf) DIFFERS from SessionManager (see SPEC)";
		}
		for (const leaf of b.built.freeLeaves ?? []) {
			cases.push({ leaf, explicitNull: leaf === null ? true : undefined, via: "buildSessionContext", context: plain(buildSessionContext(entries, leaf)) });
		}
	} catch (err) {
		freeError = err instanceof Error ? err.message : String(err);
	}
	if (openError === null && sm) {
		const after = fs.readFileSync(copy);
		loadInfo.fileChangedByOpen = !before.equals(after);
	}
	const expected = {
		file: rel,
		generator: "gen.ts (@oh-my-pi/pi-coding-agent 18.3.4 dist/cli.js)",
		note: b.built.note ?? null,
		load: loadInfo,
		openError,
		freeError,
		crossCheck,
		cases,
	};
	fs.writeFileSync(path.join(expectedOut, `${b.name}.json`), `${JSON.stringify(expected, null, 1)}\n`);
	summary.push(`${b.name}: ${cases.length} cases${openError ? ` (open error: ${openError})` : ""}`);
}
console.log(summary.join("\n"));
console.log(`uuidv7 patched: ${uuidv7Patched}`);
fs.rmSync(scratch, { recursive: true, force: true });
