/**
 * The former pi (`@mariozechner/pi-coding-agent` 0.73.1, its last release
 * under that name), for the tests that prove ask_user still loads and works
 * there unchanged (test/legacy/) and for `npm run bench -- --pi legacy`.
 * Installed on first use into node_modules/.cache/legacy-pi
 * (cached-install.mjs), apart from the current pi the source is typed against.
 *
 *   node scripts/legacy-pi.mjs      installs it if needed and prints its command line
 *
 * Plain JavaScript, like isolated-pi.mjs; its types are in legacy-pi.d.mts.
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cachedInstall } from "./cached-install.mjs";
import { piCommandAt } from "./isolated-pi.mjs";

/** @typedef {import("./isolated-pi.d.mts").PiCommand} PiCommand */

/** @returns {Promise<PiCommand>} how to run pi 0.73.1, with the node running us */
export async function ensureLegacyPi() {
	return piCommandAt(await legacyPiPackageDir());
}

/** @returns {Promise<string>} the directory of the legacy pi's package (for its modules, as the benchmark loads them) */
export async function legacyPiPackageDir() {
	return join(await cachedInstall("legacy-pi"), "node_modules", "@mariozechner", "pi-coding-agent");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const pi = await ensureLegacyPi();
	console.log(`pi ${pi.version}: ${pi.argv.join(" ")}`);
}
