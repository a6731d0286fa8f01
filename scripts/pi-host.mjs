/**
 * How a script outside vitest loads this package's TypeScript the way pi runs it: jiti (pi's dependency) with pi's
 * own alias table, what its extension loader gives jiti. Shared by the benchmark (scripts/bench.mjs) and the soak
 * (scripts/soak.mjs). Plain JavaScript, so it runs with no build step.
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** pi 1.x: its loader's table (core/extensions/loader.js, getAliases), the new names and the old. */
export function currentHost() {
	const packageDir = join(repo, "node_modules", "@earendil-works", "pi-coding-agent");
	if (!existsSync(packageDir)) {
		console.error("pi is not installed here yet: run `npm ci` first.");
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

/** A jiti that loads TypeScript with `host`'s aliases, resolved through that pi's package. */
export async function jitiFor(host) {
	const { createJiti } = await import(pathToFileURL(resolveIn(host.packageDir, "jiti")).href);
	return createJiti(import.meta.url, { moduleCache: true, alias: host.aliases });
}

export function typeboxAliases(packageDir) {
	const aliases = {};
	for (const sub of ["", "/compile", "/value"]) {
		const entry = resolveIn(packageDir, `typebox${sub}`);
		aliases[`typebox${sub}`] = entry;
		aliases[`@sinclair/typebox${sub}`] = entry;
	}
	return aliases;
}

export function versionOf(packageDir) {
	return JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;
}

/**
 * A package's ESM entry as seen from `from` (node_modules up the tree, the
 * `import` or `default` export): pi's own packages export no `require` entry,
 * so require.resolve cannot find them.
 */
export function resolveIn(from, specifier) {
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
