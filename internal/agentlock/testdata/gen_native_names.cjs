// Generator for native_names.json (run by hand; CI only reads the output).
//
// Loads oh-my-pi's native addon (npm package @oh-my-pi/pi-natives-linux-x64,
// unpacked under /tmp, never inside the repository), takes its FileLock on
// each lock path below, and records the abstract Unix socket name the
// kernel lists for it in /proc/net/unix while it is held, and that a second
// tryAcquire of the same path is refused. Linux only.
//
//   cd /tmp/omp-lease && npm pack @oh-my-pi/pi-natives-linux-x64@18.2.11
//   tar xzf oh-my-pi-pi-natives-linux-x64-18.2.11.tgz
//   node gen_native_names.cjs /tmp/omp-lease/package/pi_natives.linux-x64-baseline.node 18.2.11 > native_names.json
"use strict";
const fs = require("fs");
const [addonPath, version] = process.argv.slice(2);
const m = require(addonPath);

const paths = [
	// omp >= 18.5 session ownership leases: <root>/run/session-owners/<id>.lock
	"/home/u/.omp/run/session-owners/0190a3c4-1111-7222-8333-444455556666.lock",
	"/home/u/.omp/profiles/work/run/session-owners/0190a3c4-1111-7222-8333-444455556666.lock",
	"/home/u/.xcsh/run/session-owners/0123456789abcdef.lock",
	"/home/ü/.omp/run/session-owners/a_b-C.lock",
	// pi-utils FileLock on a session file: path.resolve(session) + ".lock"
	"/home/u/.omp/agent/sessions/-home-u-p/2026-01-01T00-00-00-000Z_0190a3c4-1111-7222-8333-444455556666.jsonl.lock",
	// 31, 32 and 33 bytes (the XXH64 stripe boundary)
	"/tmp/abcdefghijklmnopqrstuv.lock",
	"/tmp/abcdefghijklmnopqrstuvw.lock",
	"/tmp/abcdefghijklmnopqrstuvwx.lock",
];

function abstractNames() {
	return new Set(
		fs
			.readFileSync("/proc/net/unix", "utf8")
			.split("\n")
			.map(l => l.trim().split(/\s+/).pop())
			.filter(n => n && n.startsWith("@omp-file-lock-")),
	);
}

const out = { source: `@oh-my-pi/pi-natives-linux-x64@${version} FileLock.tryAcquire`, vectors: [] };
for (const p of paths) {
	const before = abstractNames();
	const lock = m.FileLock.tryAcquire(p);
	if (!lock.acquired) throw new Error(`not acquired: ${p}`);
	const added = [...abstractNames()].filter(n => !before.has(n));
	const second = m.FileLock.tryAcquire(p);
	if (added.length !== 1) throw new Error(`expected one new socket for ${p}, got ${added}`);
	out.vectors.push({ path: p, socket: added[0].slice(1), second_acquired: second.acquired, file_created: fs.existsSync(p) });
	lock.release();
	if (abstractNames().has(added[0])) throw new Error(`still bound after release: ${p}`);
}
process.stdout.write(JSON.stringify(out, null, "\t") + "\n");
