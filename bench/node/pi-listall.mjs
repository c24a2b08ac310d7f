#!/usr/bin/env node
// Benchmark driver (for `make bench`, never CI): times pi's session listing.
//
//   node pi-listall.mjs --pkg <dir of @mariozechner/pi-coding-agent> [--repeat N] AGENTDIR
//
// In pi 0.73.1 SessionManager.listAll() takes no directory: it lists
// getSessionsDir() = <agentDir>/sessions, where agentDir is $PI_CODING_AGENT_DIR
// (read at call time; "~" expanded) or ~/.pi/agent. It reads every *.jsonl one
// level below sessions/ (one sub-directory per cwd), whole files, in parallel.
// It only reads files. Prints {"ms":…, "sessions":…} (best of N with --repeat).

import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const argv = process.argv.slice(2);
let pkg;
let repeat = 1;
const rest = [];
for (let i = 0; i < argv.length; i++) {
	if (argv[i] === "--pkg") pkg = argv[++i];
	else if (argv[i] === "--repeat") repeat = Math.max(1, Number(argv[++i]) || 1);
	else rest.push(argv[i]);
}
if (!pkg || rest.length !== 1) {
	console.error("usage: node pi-listall.mjs --pkg <pi-coding-agent dir> [--repeat N] AGENTDIR");
	process.exit(2);
}
const agentDir = resolve(rest[0]);
if (!existsSync(join(agentDir, "sessions"))) {
	console.error(`warning: ${join(agentDir, "sessions")} does not exist; listAll will return []`);
}
process.env.PI_CODING_AGENT_DIR = agentDir;
pkg = resolve(pkg);
const pj = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
const { SessionManager } = await import(pathToFileURL(join(pkg, pj.exports["."].import)).href);

let best = null;
for (let r = 0; r < repeat; r++) {
	const t0 = performance.now();
	const list = await SessionManager.listAll();
	const ms = performance.now() - t0;
	if (!best || ms < best.ms) best = { ms, sessions: list.length };
}
console.log(JSON.stringify({ ms: Number(best.ms.toFixed(3)), sessions: best.sessions, pi: `${pj.name}@${pj.version}`, runs: repeat }));
