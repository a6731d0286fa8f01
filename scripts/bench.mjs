#!/usr/bin/env node
/**
 * `npm run bench`: how fast ask_user is, measured the way pi runs it.
 *
 * Plain Node on purpose, so it runs on a fresh clone after `npm ci` with no
 * build step. The TypeScript (ours, the benchmark's, and pi's questionnaire
 * example) is loaded through jiti with pi's own alias table — the loader pi
 * itself uses for extensions — so the code measured is the code pi runs. jiti
 * is pi's dependency and is resolved through pi, not declared again here.
 *
 * Prints a table, then as its LAST line one JSON object with every figure.
 * Options: --quick (fewer keys and runs, a smoke test), --keys N (measured
 * keys per width), --skip-load (no pi processes), --load-only (only pi's
 * start-up), --first-call (only the real-call corpus's first-call rate), --runs N (start-ups of each kind, default 9); --first-ask cold|warm is
 * the one-shot child the benchmark spawns for the first-ask figures.
 */

import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const piPackage = join(repo, "node_modules", "@mariozechner", "pi-coding-agent", "package.json");

let fromPi;
try {
	fromPi = createRequire(piPackage);
} catch {
	console.error("pi is not installed here yet: run `npm ci` first, then `npm run bench`.");
	process.exit(1);
}

/** The aliases pi's extension loader gives jiti (core/extensions/loader.js, getAliases). */
function piAliases() {
	const resolveFromPi = (specifier) => fromPi.resolve(specifier);
	const typebox = resolveFromPi("typebox");
	const typeboxCompile = resolveFromPi("typebox/compile");
	const typeboxValue = resolveFromPi("typebox/value");
	// pi resolves these from its own module; npm hoists them next to it, where this resolves too.
	const fromUrl = (specifier) => fileURLToPath(import.meta.resolve(specifier));
	return {
		"@mariozechner/pi-coding-agent": join(dirname(piPackage), "dist", "index.js"),
		"@mariozechner/pi-agent-core": fromUrl("@mariozechner/pi-agent-core"),
		"@mariozechner/pi-tui": fromUrl("@mariozechner/pi-tui"),
		"@mariozechner/pi-ai": fromUrl("@mariozechner/pi-ai"),
		typebox,
		"typebox/compile": typeboxCompile,
		"typebox/value": typeboxValue,
		"@sinclair/typebox": typebox,
		"@sinclair/typebox/compile": typeboxCompile,
		"@sinclair/typebox/value": typeboxValue,
	};
}

const { createJiti } = await import(pathToFileURL(fromPi.resolve("jiti")).href);
const jiti = createJiti(import.meta.url, { moduleCache: true, alias: piAliases() });
const { runBench } = await jiti.import(join(repo, "scripts", "bench", "main.ts"));
await runBench({ repo, argv: process.argv.slice(2), jiti });
