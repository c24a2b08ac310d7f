#!/usr/bin/env node
// Re-checks the committed parity fixtures against pi's published code.
// Installs nothing; point --pkg at an installed @mariozechner/pi-coding-agent.
//
//   node verify.mjs --pkg /tmp/pi-ref/node_modules/@mariozechner/pi-coding-agent \
//                   --out testdata/pi/parity [--migrate testdata/pi/migrate]
//
// For every expected/*.json, damaged/*.expected.json and migrate/*.expected.json
// it re-loads the session file from disk with pi's loadEntriesFromFile and
// recomputes buildSessionContext for each recorded leaf, then compares the
// JSON.stringify output byte for byte; it also re-lists sessions/ and damaged/
// with SessionManager.list and compares listing-*.json. Exits 1 on any difference.

import { readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const argv = process.argv.slice(2);
const opt = (k) => {
	const i = argv.indexOf(k);
	return i >= 0 ? argv[i + 1] : undefined;
};
const pkg = resolve(opt("--pkg") ?? "");
const out = resolve(opt("--out") ?? "testdata/pi/parity");
const mig = resolve(opt("--migrate") ?? join(out, "..", "migrate"));
const pj = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
const pi = await import(pathToFileURL(join(pkg, pj.exports["."].import)).href);
const smm = await import(pathToFileURL(join(pkg, "dist/core/session-manager.js")).href);
const { buildSessionContext, migrateSessionEntries } = pi;
const { loadEntriesFromFile } = smm;

let failures = 0;
let checked = 0;
const fail = (msg) => {
	failures++;
	console.error(`FAIL ${msg}`);
};

function hasCycle(entries, leaf) {
	const byId = new Map();
	for (const e of entries) byId.set(e.id, e);
	let cur = (leaf ? byId.get(leaf) : undefined) ?? entries[entries.length - 1];
	const seen = new Set();
	while (cur) {
		if (seen.has(cur)) return true;
		seen.add(cur);
		cur = cur.parentId ? byId.get(cur.parentId) : undefined;
	}
	return false;
}

function checkCases(label, file, exp, migrate) {
	const fileEntries = loadEntriesFromFile(file);
	if (migrate) migrateSessionEntries(fileEntries);
	const entries = fileEntries.filter((e) => e.type !== "session");
	if (exp.loaded_entries && JSON.stringify(exp.loaded_entries) !== JSON.stringify(fileEntries)) fail(`${label}: loaded_entries differ`);
	for (const c of exp.cases) {
		checked++;
		const leaf = c.leaf ?? undefined;
		if (c.hangs) {
			if (!hasCycle(entries, leaf)) fail(`${label} leaf=${c.leaf}: marked hangs but no cycle`);
			continue;
		}
		const got = JSON.stringify(buildSessionContext(entries, leaf));
		if (got !== JSON.stringify(c.context)) fail(`${label} leaf=${c.leaf}: context differs`);
	}
}

const expDir = join(out, "expected");
const sessions = new Set(readdirSync(join(out, "sessions")));
let nSessions = 0;
for (const f of readdirSync(expDir).sort()) {
	const exp = JSON.parse(readFileSync(join(expDir, f), "utf8"));
	if (!sessions.has(exp.file)) fail(`${f}: missing session ${exp.file}`);
	const entries = loadEntriesFromFile(join(out, "sessions", exp.file)).filter((e) => e.type !== "session");
	if (entries.length >= 4 && exp.cases.length < 4) fail(`${f}: fewer than 3 non-default leaves`);
	if (exp.cases[0].leaf !== null) fail(`${f}: first case is not the default leaf`);
	checkCases(f, join(out, "sessions", exp.file), exp, true);
	nSessions++;
}
let nDamaged = 0;
for (const f of readdirSync(join(out, "damaged")).filter((x) => x.endsWith(".expected.json")).sort()) {
	const exp = JSON.parse(readFileSync(join(out, "damaged", f), "utf8"));
	checkCases(`damaged/${f}`, join(out, "damaged", exp.file), exp, true);
	nDamaged++;
}
let nMig = 0;
for (const f of readdirSync(mig).filter((x) => x.endsWith(".expected.json")).sort()) {
	const exp = JSON.parse(readFileSync(join(mig, f), "utf8"));
	nMig++;
	if (exp.throws) continue;
	checkCases(`migrate/${f}`, join(mig, exp.file), exp, false);
}
let nListed = 0;
for (const [sub, name] of [["sessions", "listing-sessions.json"], ["damaged", "listing-damaged.json"]]) {
	const exp = JSON.parse(readFileSync(join(out, name), "utf8"));
	const infos = await pi.SessionManager.list("/unused", join(out, sub));
	const byFile = new Map(infos.map((i) => [basename(i.path), i]));
	for (const row of exp.sessions) {
		const i = byFile.get(row.file);
		nListed++;
		if (!i) {
			fail(`${name}: ${row.file} not listed by pi`);
			continue;
		}
		const got = { file: row.file, id: i.id, cwd: i.cwd, name: i.name, parentSessionPath: i.parentSessionPath, created: i.created, modified: i.modified, messageCount: i.messageCount, firstMessage: i.firstMessage, allMessagesText: i.allMessagesText };
		if (JSON.stringify(got) !== JSON.stringify(row)) fail(`${name}: ${row.file} differs`);
	}
	for (const f of exp.skipped) if (byFile.has(f)) fail(`${name}: ${f} expected skipped but listed`);
	if (byFile.size !== exp.sessions.length) fail(`${name}: pi lists ${byFile.size}, expected ${exp.sessions.length}`);
}
console.log(`sessions=${nSessions} damaged=${nDamaged} migrate=${nMig} listed=${nListed} cases=${checked} failures=${failures}`);
process.exit(failures ? 1 : 0);
