// Loads the published @oh-my-pi/pi-coding-agent 18.3.4 bundle (dist/cli.js) as a module.
//
// The bundle is imported unchanged except for two mechanical edits made to a copy in a
// scratch directory: (1) imports of the native addon (@oh-my-pi/pi-natives*) and
// @babel/parser are pointed at generated stub modules, and (2) an export statement is
// appended that exposes the bundle's package-index namespace object, its lazy module
// initializer and the blob-store module namespace. The CLI entry point does not run on
// import (it is gated on import.meta.main).
//
// Stub semantics: calling any native function throws, except FileLock.tryAcquire (the
// session publish lock), which reports success. Nothing on the session load/context/
// append paths used by the generators touches the addon otherwise.

import * as fs from "node:fs";
import * as path from "node:path";

export async function loadOmpBundle(pkgDir: string, scratch: string): Promise<any> {
	let src = fs.readFileSync(path.join(pkgDir, "dist", "cli.js"), "utf8");
	const stubDir = path.join(scratch, "bundle");
	fs.mkdirSync(stubDir, { recursive: true });
	const specs = new Map<string, Set<string>>();
	const importRe =
		/import\s*(\{[^}]*\}|\*\s*as\s+[\w$]+|[\w$]+(?:\s*,\s*\{[^}]*\})?)\s*from\s*"(@oh-my-pi\/pi-natives(?:\/[\w-]+)?|@babel\/parser)"/g;
	for (const m of src.matchAll(importRe)) {
		if (!specs.has(m[2])) specs.set(m[2], new Set());
		const brace = m[1].match(/\{([^}]*)\}/);
		if (brace) {
			for (const part of brace[1].split(",")) {
				const name = part.trim().split(/\s+as\s+/)[0].trim();
				if (name) specs.get(m[2])!.add(name);
			}
		}
	}
	for (const m of src.matchAll(/import\("(@oh-my-pi\/pi-natives(?:\/[\w-]+)?|@babel\/parser)"\)/g)) {
		if (!specs.has(m[1])) specs.set(m[1], new Set());
	}
	const stubHead =
		'function mk(n){const f=function(){throw new Error("native stub called: "+n)};' +
		'return new Proxy(f,{get(t,p){if(p==="then")return undefined;' +
		'if(p==="tryAcquire")return ()=>({acquired:true,release(){}});' +
		'if(typeof p==="symbol")return t[p];return mk(n+"."+String(p))},' +
		'construct(){throw new Error("native stub constructed: "+n)}})}\n';
	for (const [spec, names] of specs) {
		const file = path.join(stubDir, `${spec.replace(/[@/]/g, "_")}.js`);
		let body = stubHead;
		for (const n of names) body += `export const ${n} = mk(${JSON.stringify(n)});\n`;
		body += 'export default mk("default");\n';
		fs.writeFileSync(file, body);
		src = src.split(`"${spec}"`).join(JSON.stringify(file));
	}
	const ns = src.match(
		/var ([\w$]+)=\{\};P\(\1,\{ALL_SEGMENT_IDS:[^}]*?SessionManager:\(\)=>[\w$]+[^}]*\}\);var ([\w$]+)=b\(\(\)=>\{/,
	);
	if (!ns) throw new Error("package index namespace not found in dist/cli.js");
	const blobNs = src.match(/var ([\w$]+)=\{\};P\(\1,\{BLOB_HASH_RE:\(\)=>[\w$]+,BlobStore:\(\)=>/);
	if (!blobNs) throw new Error("blob-store namespace not found in dist/cli.js");
	src += `\nexport { ${ns[1]} as __ompIndex, ${ns[2]} as __ompIndexInit, ${blobNs[1]} as __ompBlobStore };\n`;
	const out = path.join(stubDir, "cli-parity.js");
	fs.writeFileSync(out, src);
	const mod = await import(out);
	mod.__ompIndexInit();
	return { ...mod.__ompIndex, __blob: mod.__ompBlobStore };
}
