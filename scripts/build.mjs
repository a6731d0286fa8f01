#!/usr/bin/env node
/**
 * `npm run build [-- <dir>]`: the build a package from npm carries, into <dir>/dist (default: this checkout's dist/,
 * which `npm pack` makes and removes again: prepack and postpack). index.ts loads it where it is there.
 *
 * Why: pi loads an extension through jiti, which compiles every TypeScript module it loads (Babel), about 15–40 ms a
 * module the first time, before its cache holds it. The build is plain ES modules that Node loads as they are: pi's
 * loader compiles index.ts and nothing more. src/extension/register.ts is its entry; each `import()` of the source
 * stays one, so what loads on first use still does.
 *
 * What the source imports of pi's (pi-coding-agent, pi-tui, TypeBox, under the names pi gives extensions) only pi's
 * loader can resolve, so the build does not hold it: each such module becomes a stand-in that asks index.ts for the
 * real one (globalThis[FROM_PI](name), resolved through pi's loader) and exports its names. Those names are the ones
 * this checkout's pi exports; a name another pi lacks is undefined there, as it is to the source.
 *
 * Plain Node (run by Node 22: scripts/node22.mjs), with the bundler vite already brings (rolldown).
 */

import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { rolldown } from "rolldown";
import { currentHost, repo } from "./pi-host.mjs";

/** index.ts's key (it says the same). */
const FROM_PI = 'globalThis.Symbol.for("pi-ask-user:from-pi")';
const PI_MODULES = [
	"@mariozechner/pi-coding-agent",
	"@mariozechner/pi-tui",
	"@sinclair/typebox",
	"@sinclair/typebox/value",
];
/** The web page's own files, read beside the module that serves them (src/web/server.ts). */
const WEB_ASSETS = ["page.js", "page.css", "files.js"];
const STAND_IN = "\0from-pi:";
/** The modules pi's start-up loads (test/e2e/startup.test.ts holds the list), and the stand-ins they import. */
const START_UP =
	/src\/(extension\/register|core\/loaded|core\/params|settings\/flags|i18n\/locale|tool\/tool)\.ts$|^\0from-pi:@(mariozechner\/pi-tui|sinclair\/typebox)$/;

/** Builds into `outDir`/dist; returns the entry's file name. */
export async function build(outDir = repo) {
	const dist = join(outDir, "dist");
	rmSync(dist, { recursive: true, force: true });
	const names = await exportedNames();
	const bundle = await rolldown({
		input: { "ask-user": join(repo, "src", "extension", "register.ts") },
		platform: "node",
		external: (id) => id.startsWith("node:") || id === "uqr",
		plugins: [
			{
				name: "from-pi",
				resolveId: (id) => (PI_MODULES.includes(id) ? `${STAND_IN}${id}` : undefined),
				load: (id) =>
					id.startsWith(STAND_IN) ? standIn(id.slice(STAND_IN.length), names[id.slice(STAND_IN.length)]) : undefined,
			},
		],
	});
	const { output } = await bundle.write({
		dir: dist,
		format: "esm",
		entryFileNames: "[name]-[hash].mjs",
		chunkFileNames: "[name]-[hash].mjs",
		// What pi's start-up loads, in one file: Node reads and links one module where it would five.
		codeSplitting: { groups: [{ name: "start-up", test: START_UP }] },
	});
	await bundle.close();
	const entry = output.find((file) => file.type === "chunk" && file.isEntry)?.fileName;
	if (!entry) throw new Error("the build made no entry");
	for (const asset of WEB_ASSETS) copyFileSync(join(repo, "src", "web", asset), join(dist, asset));
	writeFileSync(join(dist, "manifest.json"), `${JSON.stringify({ entry })}\n`);
	return entry;
}

/**
 * This checkout as a package from npm has it: index.ts and package.json beside the build, in `dir` (under this
 * checkout's node_modules, where the build's one dependency of its own, uqr, is found). Returns index.ts's path.
 */
export async function buildPackage(dir = join(repo, "node_modules", ".cache", "pi-ask-user-package")) {
	mkdirSync(dir, { recursive: true });
	for (const file of ["index.ts", "package.json"]) copyFileSync(join(repo, file), join(dir, file));
	await build(dir);
	return join(dir, "index.ts");
}

/** A module that stands for pi's `name`: the real one, asked of index.ts, and its names. */
function standIn(name, exported) {
	// A module's names may be the globals' (TypeBox exports `Symbol`): the stand-in's own names keep clear of them.
	const bindings = exported.filter(
		(key) => !["default", "globalThis", "real$"].includes(key) && /^[A-Za-z_$][\w$]*$/.test(key),
	);
	return [
		`const real$ = await globalThis[${FROM_PI}](${JSON.stringify(name)});`,
		`export const { ${bindings.join(", ")} } = real$;`,
	].join("\n");
}

/** Each of pi's modules' export names, read from this checkout's pi (the names pi 1.x gives extensions). */
async function exportedNames() {
	const { aliases } = currentHost();
	const names = {};
	for (const name of PI_MODULES) names[name] = Object.keys(await import(pathToFileURL(aliases[name]).href));
	return names;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
	const outDir = resolve(process.argv[2] ?? repo);
	mkdirSync(outDir, { recursive: true });
	const entry = await build(outDir);
	console.error(`built ${join(outDir, "dist", entry)}`);
}
