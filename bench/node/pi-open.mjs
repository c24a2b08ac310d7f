#!/usr/bin/env node
// Benchmark driver (for `make bench`, never CI): times pi's own loader.
//
//   node pi-open.mjs --pkg <dir of @mariozechner/pi-coding-agent> [--repeat N] FILE
//
// Copies FILE into a fresh temp dir (SessionManager.open may rewrite the file
// it opens: migrations, or a bare header when the header is bad), then times
// SessionManager.open(copy) and sm.buildSessionContext() (default leaf).
// Prints one JSON line: {"ms_open":…, "ms_context":…, "messages":…}.
// With --repeat N the best (minimum) of N runs is printed, each on a fresh copy.

import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const argv = process.argv.slice(2);
let pkg;
let repeat = 1;
const files = [];
for (let i = 0; i < argv.length; i++) {
	if (argv[i] === "--pkg") pkg = argv[++i];
	else if (argv[i] === "--repeat") repeat = Math.max(1, Number(argv[++i]) || 1);
	else files.push(argv[i]);
}
if (!pkg || files.length !== 1) {
	console.error("usage: node pi-open.mjs --pkg <pi-coding-agent dir> [--repeat N] FILE");
	process.exit(2);
}
pkg = resolve(pkg);
const pj = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
const { SessionManager } = await import(pathToFileURL(join(pkg, pj.exports["."].import)).href);

const src = resolve(files[0]);
let best = null;
for (let r = 0; r < repeat; r++) {
	const dir = mkdtempSync(join(tmpdir(), "pi-open-bench-"));
	try {
		const copy = join(dir, basename(src));
		copyFileSync(src, copy);
		const t0 = performance.now();
		const sm = SessionManager.open(copy, dir);
		const t1 = performance.now();
		const ctx = sm.buildSessionContext();
		const t2 = performance.now();
		const res = { ms_open: t1 - t0, ms_context: t2 - t1, messages: ctx.messages.length };
		if (!best || res.ms_open + res.ms_context < best.ms_open + best.ms_context) best = res;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
best.ms_open = Number(best.ms_open.toFixed(3));
best.ms_context = Number(best.ms_context.toFixed(3));
console.log(JSON.stringify({ ...best, pi: `${pj.name}@${pj.version}`, runs: repeat }));
