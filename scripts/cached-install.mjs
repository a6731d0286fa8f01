/**
 * Installs a pinned set of npm packages that are not the project's own
 * dependencies into node_modules/.cache/<name>, with `npm ci` from a manifest
 * and lockfile kept in test/hosts/<name>/, once per lockfile (a changed
 * lockfile installs afresh; the project's own `npm ci` clears the cache).
 *
 * Two things live there: the Node ≥ 22.19 that pi 1.x needs (node22.mjs),
 * published on the registry for Linux only, so a dev dependency on it would
 * break `npm ci` elsewhere; and the former pi, 0.73.1 (legacy-pi.mjs), kept
 * apart so it cannot shadow the current pi the source is typed against.
 *
 * Plain JavaScript, like isolated-pi.mjs; its types are in cached-install.d.mts.
 */

import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./isolated-pi.mjs";

/**
 * @param {string} name the folder under test/hosts/ and node_modules/.cache/
 * @returns {Promise<string>} the install directory (its node_modules holds the packages)
 */
export async function cachedInstall(name) {
	const manifestDir = join(REPO_ROOT, "test", "hosts", name);
	const installDir = join(REPO_ROOT, "node_modules", ".cache", name);
	const lock = readFileSync(join(manifestDir, "package-lock.json"), "utf8");
	const stamp = join(installDir, ".installed-lock.json");
	if (existsSync(stamp) && readFileSync(stamp, "utf8") === lock) return installDir;
	rmSync(installDir, { recursive: true, force: true });
	mkdirSync(installDir, { recursive: true });
	for (const file of ["package.json", "package-lock.json"]) cpSync(join(manifestDir, file), join(installDir, file));
	try {
		await promisify(execFile)("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
			cwd: installDir,
			maxBuffer: 16 * 1024 * 1024,
		});
	} catch (error) {
		const { stderr = "" } = /** @type {{ stderr?: string }} */ (error);
		throw new Error(
			`Could not install test/hosts/${name} (npm ci in ${installDir}): ${stderr.trim() || String(error)}`,
		);
	}
	writeFileSync(stamp, lock);
	return installDir;
}
