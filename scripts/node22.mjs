#!/usr/bin/env node
/**
 * A Node ≥ 22.19, the one pi 1.x needs: the node running us when it is new
 * enough, else the registry's Node 22 (`node-linux-*`, the binary inside the
 * package) installed into node_modules/.cache/node22 on first use.
 *
 *   node scripts/node22.mjs <command> [args…]   runs the command with that node first on PATH
 *
 * `npm test`, `npm run demo` and `npm run bench` go through it, so a machine
 * whose node is 20 still runs pi 1.6 and the tests that import it.
 *
 * Plain JavaScript, like isolated-pi.mjs; its types are in node22.d.mts.
 */

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cachedInstall } from "./cached-install.mjs";

/** The Node pi 1.x needs (its `engines`). */
const NODE_MIN = [22, 19];

/** @returns {Promise<string>} the path of a node binary ≥ 22.19 */
export async function ensureNode22() {
	if (atLeast(process.versions.node, NODE_MIN)) return process.execPath;
	const platformPackage = `node-${process.platform}-${process.arch}`;
	const installed = join(await cachedInstall("node22"), "node_modules", platformPackage, "bin", "node");
	if (existsSync(installed)) return installed;
	throw new Error(
		`pi 1.x needs Node >= ${NODE_MIN.join(".")}. This is Node ${process.versions.node} on ${process.platform}-${process.arch}, ` +
			"for which the npm registry has no Node 22 package: install Node 22.19 or newer and run this again.",
	);
}

/** @param {string} version @param {number[]} min */
export function atLeast(version, min) {
	const parts = version.split(".").map(Number);
	for (let i = 0; i < min.length; i++) {
		const have = parts[i] ?? 0;
		const want = min[i] ?? 0;
		if (have !== want) return have > want;
	}
	return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const [command, ...args] = process.argv.slice(2);
	if (!command) {
		console.log(await ensureNode22());
		process.exit(0);
	}
	const node = await ensureNode22();
	// The project's bins (as npm run has them), then Node 22: a bin such as vitest, whose
	// `#!/usr/bin/env node` then finds Node 22 first, or `node` itself.
	const bins = join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules", ".bin");
	const env = { ...process.env, PATH: [bins, dirname(node), process.env["PATH"] ?? ""].join(delimiter) };
	const child = spawn(command === "node" ? node : command, args, { stdio: "inherit", env });
	for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
	child.on("error", (error) => {
		console.error(`Could not run ${command}: ${error.message}`);
		process.exit(1);
	});
	child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
