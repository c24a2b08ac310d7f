// Differential fixtures for sessctl's omp context rebuild (omp_context.go).
//
// Random small sessions (every entry type omp 18.3.4 knows, random parents,
// duplicate and missing ids, odd values; some damaged: pretty-printed
// entries, garbage lines, glued objects, CRLF) are written to a scratch folder and
// loaded with the real @oh-my-pi/pi-coding-agent 18.3.4 bundle:
// loadSessionFile + migrateToCurrentVersion + buildSessionContext for the
// default leaf (the last entry's id, as SessionManager resumes) and random
// leaves. Output: cases.json ({sessions:[{text, cases:[{leaf, context}]}]}),
// read by TestOmpContextMatchesBundle. Deterministic (seeded PRNG).
//
// Setup as in testdata/omp/parity/README.md, then:
//   bun gen.ts /tmp/omp-ref/pkg/package [count] > cases.json
import * as fs from "node:fs";
import * as path from "node:path";
const pkgDir = process.argv[2];
const N = Number(process.argv[3] ?? 100);
const { loadOmpBundle } = await import("../../../../../testdata/omp/parity/omp-bundle.ts");
const scratch = fs.mkdtempSync("/tmp/ompdiff-scratch-");
process.env.PI_CODING_AGENT_DIR = path.join(scratch, "agent");
const omp = await loadOmpBundle(pkgDir, scratch);
const { buildSessionContext, loadSessionFile, migrateToCurrentVersion } = omp;

let seed = Number(process.env.SEED ?? 777);
function rnd(n: number): number { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0; return seed % n; }
const pick = <T>(xs: T[]): T => xs[rnd(xs.length)];
const maybe = (p: number) => rnd(100) < p;

function ts(i: number) { return maybe(3) ? "not a date" : new Date(Date.UTC(2026, 4, 1, 10, 0, i)).toISOString(); }
function textBlock() { return { type: "text", text: pick(["hello", "  ", "", "answer ✓", "line1\nline2"]) }; }

function session(s: number) {
	const ids: string[] = [];
	const tcs: string[] = [];
	const lines: any[] = [{ type: "session", version: 3, id: `s${s}`, timestamp: ts(0), cwd: "/w" }];
	const n = 3 + rnd(22);
	for (let i = 0; i < n; i++) {
		let id = `e${i}`;
		if (maybe(3) && ids.length) id = pick(ids);
		let parentId: any = ids.length ? ids[ids.length - 1] : null;
		if (maybe(15) && ids.length) parentId = pick(ids);
		if (maybe(4)) parentId = null;
		if (maybe(2)) parentId = "missing";
		const base: any = { id, parentId, timestamp: ts(i + 1) };
		let e: any;
		switch (rnd(20)) {
			case 0: case 1: case 2:
				e = { type: "message", message: { role: "user", content: maybe(50) ? pick(["q", "hi there", ""]) : [textBlock()], timestamp: 1000 + i } };
				break;
			case 3: case 4: case 5: {
				const content: any[] = [];
				const k = rnd(4);
				for (let j = 0; j < k; j++) {
					switch (rnd(5)) {
						case 0: content.push(textBlock()); break;
						case 1: content.push({ type: "thinking", thinking: pick(["hmm", " "]), ...(maybe(50) ? { thinkingSignature: pick(["sig", "", " "]) } : {}) }); break;
						case 2: { const tc = `tc${s}_${i}_${j}`; tcs.push(tc); content.push({ type: "toolCall", id: tc, name: "bash", arguments: { c: "ls" } }); break; }
						case 3: content.push({ type: "redactedThinking", data: pick(["xx", ""]) }); break;
						default: content.push({ type: pick(["fallback", "image", "weird"]), data: "d" });
					}
				}
				e = { type: "message", message: { role: "assistant", content, provider: pick(["anthropic", "openai"]), model: pick(["m1", "m2"]), stopReason: pick(["stop", "stop", "toolUse", "error", "aborted"]), ...(maybe(10) ? { retryRecovery: true } : {}), timestamp: 1000 + i } };
				break;
			}
			case 6: case 7:
				e = { type: "message", message: { role: "toolResult", toolCallId: tcs.length && maybe(80) ? pick(tcs) : "tcX", toolName: "bash", content: [textBlock()], isError: false, timestamp: 1000 + i } };
				break;
			case 8: {
				const cm: any = { type: "custom_message", customType: pick(["note", "prewalk-plan", "vibe-mode-context", "skill-prompt", "collab-prompt", "interrupted-thinking", ""]), content: pick<any>(["c", [textBlock()], 42, null]) };
				if (maybe(70)) cm.display = pick<any>([true, false, "x"]);
				if (maybe(50)) cm.details = pick<any>([null, { a: 1 }]);
				if (maybe(60)) cm.attribution = pick<any>(["user", "agent", null, "x"]);
				e = cm; break;
			}
			case 9: e = { type: "thinking_level_change", thinkingLevel: pick<any>(["high", "low", null]), ...(maybe(40) ? { configured: pick<any>(["auto", null, "high"]) } : {}) }; break;
			case 10: e = maybe(80) ? { type: "model_change", model: pick(["a/x", "b/y", ""]), ...(maybe(60) ? { role: pick(["default", "smol", "slow"]) } : {}) } : { type: "model_change", provider: "p", modelId: "m" }; break;
			case 11: e = { type: "service_tier_change", serviceTier: pick<any>(["priority", "flex", "openai-only", "claude-only", "weird", null, { openai: "flex", google: "bad" }, 5]) }; break;
			case 12: {
				const c: any = { type: "compaction", summary: pick(["sum", ""]), firstKeptEntryId: ids.length && maybe(70) ? pick(ids) : pick(["", "nope"]), tokensBefore: 100 };
				if (maybe(40)) c.shortSummary = "short";
				if (maybe(20)) c.tokensAfter = 50;
				if (maybe(20)) c.method = "llm";
				if (maybe(15)) c.warning = "w";
				if (maybe(25)) c.providerReplayThroughEntryId = ids.length ? pick(ids) : "x";
				if (maybe(35)) c.preserveData = pick<any>([
					{ openaiRemoteCompaction: { provider: "openai", replacementHistory: [{ type: "message", role: "user", content: [] }] } },
					{ openaiRemoteCompaction: { provider: "openai", replacementHistory: [1] } },
					{ openaiRemoteCompaction: { provider: "", replacementHistory: [] } },
					{ anthropicCompaction: { provider: "anthropic", content: "native", signature: "sg", model: "m" } },
					{ anthropicCompaction: { provider: "anthropic", content: "" } },
				]);
				if (maybe(20)) c.details = { kind: "experimental-context-rollover" };
				e = c; break;
			}
			case 13: e = { type: "branch_summary", summary: pick(["bs", ""]), fromId: ids.length ? pick(ids) : "root" }; break;
			case 14: e = { type: "reset_boundary" }; break;
			case 15: e = { type: "ttsr_injection", injectedRules: [pick(["r1", "r2", "r3"]), pick(["r1", "r4"])] }; break;
			case 16: e = { type: "mode_change", mode: pick(["plan", "none", "vibe"]), ...(maybe(50) ? { data: { k: rnd(9) } } : {}) }; break;
			case 17: e = { type: "custom", customType: "experimental_context_notes", data: pick<any>([{ version: 1, text: "notes | a |\n|--|\n\n\nmore" }, { version: 1, text: "" }, { version: 2, text: "x" }, { version: 1, text: "t", extra: 1 }]) }; break;
			case 18: e = { type: "label", targetId: ids.length ? pick(ids) : "x", label: "L" }; break;
			default: e = { type: "message", message: { role: pick(["bashExecution", "custom", "developer"]), content: "x", customType: "skill-prompt", attribution: pick(["user", "agent"]), timestamp: 1000 + i } };
		}
		lines.push({ type: e.type, ...base, ...e });
		ids.push(id);
	}
	return { lines, ids };
}

const out: any[] = [];
const outDir = path.join(scratch, "out");
fs.mkdirSync(path.join(outDir, "sessions"), { recursive: true });
for (let s = 0; s < N; s++) {
	const { lines, ids } = session(s);
	const file = path.join(outDir, "sessions", `r${String(s).padStart(4, "0")}.jsonl`);
	// Some sessions are damaged the way files are in the wild: pretty-printed
	// entries, garbage lines, a second object glued to a line, CRLF.
	const damaged = maybe(30);
	const parts: string[] = [];
	for (const [k, l] of lines.entries()) {
		let line = JSON.stringify(l);
		if (damaged && k > 0) {
			if (maybe(10)) line = JSON.stringify(l, null, 2);
			else if (maybe(5)) line = line + JSON.stringify({ type: "message", id: "glued", parentId: null });
			else if (maybe(5)) parts.push(pick(["garbage", "{\"type\":\"message\",", "  ", "}"]));
			if (maybe(5)) line += "\r";
		}
		parts.push(line);
	}
	const text = parts.join("\n") + "\n";
	fs.writeFileSync(file, text);
	const load = await loadSessionFile(file);
	migrateToCurrentVersion(load.entries);
	const entries = load.entries.slice(1);
	const cases: any[] = [];
	const leaves: (string | null)[] = [null, ...new Set(ids.filter(() => maybe(40)))];
	for (const leaf of leaves) {
		const leafId = leaf === null ? entries[entries.length - 1].id : leaf;
		try {
			cases.push({ leaf, context: JSON.parse(JSON.stringify(buildSessionContext(entries, leafId))) });
		} catch (err) {
			cases.push({ leaf, error: String(err) });
		}
	}
	out.push({ text, cases });
}
if (omp.VERSION !== "18.3.4") throw new Error(`bundle VERSION ${omp.VERSION}`);
console.log(JSON.stringify({ generator: `gen.ts, @oh-my-pi/pi-coding-agent ${omp.VERSION} dist/cli.js, Bun ${Bun.version}`, sessions: out }));
fs.rmSync(scratch, { recursive: true, force: true });
