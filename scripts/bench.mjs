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
 * --paced-keys N (keys at a person's pace at 120 columns, default 1,000; --paced-only: nothing else; --paced-alone:
 * ours with no other tool's keys between its own;
 * --paced-profile FILE: a CPU profile of the measured ones at 120 columns),
 * --load-only (only pi's start-up), --first-call (only the real-call corpus's
 * first-call rate: `npm run bench:first-call`), --runs N (start-ups of each
 * kind, default 9); --first-ask cold|warm is the one-shot child the benchmark spawns for the
 * first-ask figures.
 */

import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPackage } from "./build.mjs";
import { legacyPiPackageDir } from "./legacy-pi.mjs";
import { currentHost, jitiFor, repo, resolveIn, typeboxAliases, versionOf } from "./pi-host.mjs";
const argv = process.argv.slice(2);
/** Where the package measured is built. */
const PACKAGE = join("node_modules", ".cache", "pi-ask-user-package");
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
	const jiti = await jitiFor(host);
	const { runBench } = await jiti.import(join(repo, "scripts", "bench", "main.ts"));
	// Ours as a package from npm has it (its build): a first-ask child takes the one its parent built.
	const extension = argv.includes("--first-ask")
		? join(repo, PACKAGE, "index.ts")
		: await buildPackage(join(repo, PACKAGE));
	await runBench({
		repo,
		extension,
		argv,
		jiti,
		pi: { version: host.version, packageDir: host.packageDir, loadPhase: host.loadPhase, piArg: which },
	});
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
