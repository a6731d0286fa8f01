#!/usr/bin/env node
/**
 * `npm run bench`: how fast ask_user is, measured the way pi runs it, in both
 * pis: the current one (1.x, the dev dependency) and pi 0.73.1
 * (scripts/legacy-pi.mjs installs it on first use). Each runs in a process of
 * its own; `--pi current` or `--pi legacy` runs only that one.
 *
 * Plain Node on purpose, so it runs on a fresh clone after `npm ci` with no
 * build step. The TypeScript (ours, the benchmark's, and pi's questionnaire
 * example) is loaded through jiti with that pi's own alias table — what its
 * extension loader gives jiti — so the code measured is the code pi runs.
 * jiti is pi's dependency and is resolved through pi, not declared again here.
 *
 * Prints a table per pi, then as its LAST line one JSON object with every
 * figure, keyed by pi version. Options: --quick (fewer keys and runs, a smoke
 * test), --keys N (measured keys per width), --heap-keys N (the heap's
 * course over N keys, default 100,000), --skip-load (no pi processes),
 * --peer PATH (another ask tool's extension entry, e.g. a checkout of
 * JuanCrg90/pi-extensions' packages/ask-user-question/index.ts: driven like
 * ours, interleaved, on the same form in its own argument shape),
 * --load-only (only pi's start-up), --first-call (only the real-call corpus's
 * first-call rate: `npm run bench:first-call`), --runs N (start-ups of each
 * kind, default 9); --first-ask cold|warm is the one-shot child the benchmark spawns for the
 * first-ask figures.
 */

import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { legacyPiPackageDir } from "./legacy-pi.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const which = argv[argv.indexOf("--pi") + 1];

if (!argv.includes("--pi")) {
	// Both pis, one process each; the last line joins their figures.
	const figures = {};
	for (const pi of ["current", "legacy"]) {
		const line = await runChild(["--pi", pi, ...argv]);
		Object.assign(figures, JSON.parse(line));
	}
	console.log(JSON.stringify(figures));
} else {
	const host = which === "legacy" ? await legacyHost() : currentHost();
	const { createJiti } = await import(pathToFileURL(resolveIn(host.packageDir, "jiti")).href);
	const jiti = createJiti(import.meta.url, { moduleCache: true, alias: host.aliases });
	const { runBench } = await jiti.import(join(repo, "scripts", "bench", "main.ts"));
	await runBench({
		repo,
		argv,
		jiti,
		pi: { version: host.version, packageDir: host.packageDir, loadPhase: host.loadPhase, piArg: which },
	});
}

/** pi 1.x: its loader's table (core/extensions/loader.js, getAliases), the new names and the old. */
function currentHost() {
	const packageDir = join(repo, "node_modules", "@earendil-works", "pi-coding-agent");
	if (!existsSync(packageDir)) {
		console.error("pi is not installed here yet: run `npm ci` first, then `npm run bench`.");
		process.exit(1);
	}
	const own = {
		"pi-coding-agent": join(packageDir, "dist", "index.js"),
		"pi-agent-core": resolveIn(packageDir, "@earendil-works/pi-agent-core"),
		"pi-tui": resolveIn(packageDir, "@earendil-works/pi-tui"),
		// Extensions get pi-ai's compat entry, plus TypeBox's Type, as pi 1.x gives them.
		"pi-ai": join(packageDir, "dist", "core", "extensions", "pi-ai-extension-view.js"),
	};
	const aliases = { ...typeboxAliases(packageDir) };
	for (const scope of ["@earendil-works", "@mariozechner"])
		for (const [name, entry] of Object.entries(own)) aliases[`${scope}/${name}`] = entry;
	// Startup phases (PI_TIMING=1): 1.x loads extensions inside createAgentSessionRuntime.
	return { packageDir, version: versionOf(packageDir), aliases, loadPhase: "createAgentSessionRuntime" };
}

/**
 * pi 0.73: its loader's table had only the old names. A peer written for pi
 * 1.x imports the new ones: they are given 0.73's packages too, as a user
 * who installed such a peer beside 0.73 would have them.
 */
async function legacyHost() {
	const packageDir = await legacyPiPackageDir();
	const aliases = { ...typeboxAliases(packageDir) };
	const own = {
		"pi-coding-agent": join(packageDir, "dist", "index.js"),
		"pi-agent-core": resolveIn(packageDir, "@mariozechner/pi-agent-core"),
		"pi-tui": resolveIn(packageDir, "@mariozechner/pi-tui"),
		"pi-ai": resolveIn(packageDir, "@mariozechner/pi-ai"),
	};
	for (const scope of ["@mariozechner", "@earendil-works"])
		for (const [name, entry] of Object.entries(own)) aliases[`${scope}/${name}`] = entry;
	// In RPC mode (no stdin read) 0.73's "readPipedStdin" phase is the extension-loading phase.
	return { packageDir, version: versionOf(packageDir), aliases, loadPhase: "readPipedStdin" };
}

function typeboxAliases(packageDir) {
	const aliases = {};
	for (const sub of ["", "/compile", "/value"]) {
		const entry = resolveIn(packageDir, `typebox${sub}`);
		aliases[`typebox${sub}`] = entry;
		aliases[`@sinclair/typebox${sub}`] = entry;
	}
	return aliases;
}

function versionOf(packageDir) {
	return JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;
}

/**
 * A package's ESM entry as seen from `from` (node_modules up the tree, the
 * `import` or `default` export): pi's own packages export no `require` entry,
 * so require.resolve cannot find them.
 */
function resolveIn(from, specifier) {
	const parts = specifier.split("/");
	const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
	const subpath = `.${specifier.slice(name.length)}`;
	for (let dir = from; ; dir = dirname(dir)) {
		const packageDir = join(dir, "node_modules", name);
		if (existsSync(join(packageDir, "package.json"))) {
			const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
			let entry = manifest.exports?.[subpath] ?? (subpath === "." ? (manifest.exports ?? manifest.main) : undefined);
			while (entry !== null && typeof entry === "object") entry = entry.import ?? entry.default ?? entry.node;
			if (typeof entry === "string") return join(packageDir, entry);
			throw new Error(`${specifier}: no ESM entry in ${packageDir}/package.json`);
		}
		if (dirname(dir) === dir) throw new Error(`${specifier} is not installed where ${from} can reach it`);
	}
}

/** Runs this script again with `args`, its output passed through; resolves its last stdout line. */
function runChild(args) {
	return new Promise((resolveLine, reject) => {
		const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args], {
			stdio: ["ignore", "pipe", "inherit"],
		});
		let out = "";
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (chunk) => {
			out += chunk;
			process.stdout.write(chunk);
		});
		child.on("error", reject);
		child.on("exit", (code) => {
			const last = out.trim().split("\n").at(-1) ?? "";
			if (code === 0 && last.startsWith("{")) resolveLine(last);
			else reject(new Error(`the benchmark with ${args.join(" ")} failed (exit ${code})`));
		});
	});
}
