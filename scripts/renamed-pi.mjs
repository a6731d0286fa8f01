/**
 * The renamed pi (`@earendil-works/pi-coding-agent` 1.x), for the tests that
 * prove ask_user loads in it unchanged (test/e2e/renamed-pi.test.ts). Its
 * loader serves the `@mariozechner/*` and `@sinclair/typebox` names this
 * package imports, so the same files run in both pis.
 *
 * It is not a dev dependency: it needs Node ≥ 22.19, and the registry's Node 22
 * (the `node-linux-*` packages, the binary inside) exists for Linux only, which
 * would break `npm ci` elsewhere. Its own manifest and lockfile live in
 * test/renamed-pi/; `ensureRenamedPi()` installs them with `npm ci` into
 * node_modules/.cache/renamed-pi (so the project's own `npm ci` starts it
 * afresh), once per lockfile, and says how to run it.
 *
 *   node scripts/renamed-pi.mjs      installs it if needed and prints its command line
 *
 * Plain JavaScript, like isolated-pi.mjs; its types are in renamed-pi.d.mts.
 */

import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { REPO_ROOT } from "./isolated-pi.mjs";

/** @typedef {import("./isolated-pi.d.mts").PiCommand} PiCommand */

const MANIFEST_DIR = join(REPO_ROOT, "test", "renamed-pi");
const INSTALL_DIR = join(REPO_ROOT, "node_modules", ".cache", "renamed-pi");
const PACKAGE = "@earendil-works/pi-coding-agent";
/** The Node it needs (its `engines`). */
const NODE_MIN = [22, 19];

/**
 * Installs the renamed pi if the install is missing or older than the
 * lockfile, and returns how to run it. Fails with what to do when no Node
 * ≥ 22.19 can be had here.
 *
 * @returns {Promise<PiCommand>}
 */
export async function ensureRenamedPi() {
	const lock = readFileSync(join(MANIFEST_DIR, "package-lock.json"), "utf8");
	const stamp = join(INSTALL_DIR, ".installed-lock.json");
	if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== lock) {
		rmSync(INSTALL_DIR, { recursive: true, force: true });
		mkdirSync(INSTALL_DIR, { recursive: true });
		for (const file of ["package.json", "package-lock.json"]) cpSync(join(MANIFEST_DIR, file), join(INSTALL_DIR, file));
		try {
			await promisify(execFile)("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
				cwd: INSTALL_DIR,
				maxBuffer: 16 * 1024 * 1024,
			});
		} catch (error) {
			const { stderr = "" } = /** @type {{ stderr?: string }} */ (error);
			throw new Error(`Could not install the renamed pi (npm ci in ${INSTALL_DIR}): ${stderr.trim() || String(error)}`);
		}
		writeFileSync(stamp, lock);
	}

	const packageDir = join(INSTALL_DIR, "node_modules", ...PACKAGE.split("/"));
	const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
	const node = nodeForRenamedPi();
	return { argv: [node, join(packageDir, manifest.bin.pi)], version: manifest.version, nodeDir: dirname(node) };
}

/** The node running us if it is new enough, else the registry's Node 22 installed beside the renamed pi. */
function nodeForRenamedPi() {
	if (atLeast(process.versions.node, NODE_MIN)) return process.execPath;
	const bundled = join(INSTALL_DIR, "node_modules", `node-${process.platform}-${process.arch}`, "bin", "node");
	if (existsSync(bundled)) return bundled;
	throw new Error(
		`The renamed pi needs Node >= ${NODE_MIN.join(".")}. This is Node ${process.versions.node} on ${process.platform}-${process.arch}, ` +
			"for which the npm registry has no Node 22 package: run the tests with Node 22.19 or newer.",
	);
}

/** @param {string} version @param {number[]} min */
function atLeast(version, min) {
	const parts = version.split(".").map(Number);
	for (let i = 0; i < min.length; i++) {
		const have = parts[i] ?? 0;
		const want = min[i] ?? 0;
		if (have !== want) return have > want;
	}
	return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const pi = await ensureRenamedPi();
	console.log(`pi ${pi.version}: ${pi.argv.join(" ")}`);
}
