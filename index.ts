/**
 * pi-ask-user: registers the `ask_user` tool.
 *
 *   pi -e ./index.ts            (or `pi install npm:pi-ask-user`)
 *
 * See docs/tool.md for the parameters and the result, ARCHITECTURE.md for how the pieces fit together.
 *
 * Two ways in. A package from npm carries a build (dist/, made as it is packed: scripts/build.mjs): JavaScript that
 * Node loads as it is, so pi's loader compiles this file and nothing else, at start-up and on the first ask. A checkout
 * has no build: its TypeScript goes through pi's loader (src/extension/register.ts and what that imports).
 */

import { readFileSync } from "node:fs";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

type Register = { default: (pi: ExtensionAPI) => void };

/**
 * What the build imports of pi's: the names pi gives extensions, which only pi's loader resolves. The build asks for
 * them through this table (on globalThis, under FROM_PI), each when the first module that imports it loads.
 */
const PI_MODULES: Record<string, () => Promise<unknown>> = {
	"@mariozechner/pi-coding-agent": () => import("@mariozechner/pi-coding-agent"),
	"@mariozechner/pi-tui": () => import("@mariozechner/pi-tui"),
	"@sinclair/typebox": () => import("@sinclair/typebox"),
	"@sinclair/typebox/value": () => import("@sinclair/typebox/value"),
};
/** The build's key for PI_MODULES (scripts/build.mjs says the same). */
const FROM_PI = Symbol.for("pi-ask-user:from-pi");

export default async function askUserExtension(pi: ExtensionAPI): Promise<void> {
	const register: Register = await (built() ?? import("./src/extension/register.ts"));
	register.default(pi);
}

/** The build's entry, loading; undefined where there is no build (a checkout). */
function built(): Promise<Register> | undefined {
	let entry: unknown;
	try {
		entry = JSON.parse(readFileSync(new URL("./dist/manifest.json", import.meta.url), "utf8")).entry;
	} catch {
		return undefined;
	}
	if (typeof entry !== "string")
		throw new Error("pi-ask-user: dist/manifest.json names no entry; reinstall the package");
	(globalThis as { [FROM_PI]?: unknown })[FROM_PI] = (name: string) =>
		PI_MODULES[name]?.() ?? Promise.reject(new Error(`pi-ask-user's build imports ${name}, which pi does not give`));
	return import(new URL(`./dist/${entry}`, import.meta.url).href) as Promise<Register>;
}
