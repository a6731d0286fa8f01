/**
 * The benchmark's smoke run (`npm run bench -- --quick`), in both pis: it runs to its end and its last line holds
 * every figure the performance page quotes, each a number. What the figures are is the benchmark's to print, not a
 * test's to judge (a shared machine is noisy): this keeps the command a reader is told to run working.
 */

import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { REPO_ROOT } from "../support/pi-env.ts";

const run = promisify(execFile);

const FIGURES = [
	["keystroke_us_median", "120"],
	["keystroke_us_p99", "120"],
	["paced_us", "120", "median"],
	["paced_us", "120", "p99"],
	["paced_questionnaire_us_120", "median"],
	["first_mount_us"],
	["first_ask_ms_cold"],
	["first_ask_ms_warm"],
	["first_ask_ms_cold_typical"],
	["first_ask_ms_warm_typical"],
	["restored_ms"],
	["heap_growth_kb_100k"],
	["heap_data_kb_since_first"],
	["load_phase_over_empty_ms"],
	["load_phase_over_empty_cold_ms"],
	["footprint_tokens"],
] as const;

it("npm run bench -- --quick runs in both pis and prints every figure", { timeout: 900_000 }, async () => {
	const { stdout } = await run(
		process.execPath,
		[join(REPO_ROOT, "scripts", "bench.mjs"), "--quick", "--paced-keys", "40", "--keys", "600"],
		{ cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024, timeout: 880_000 },
	);
	const last = stdout.trim().split("\n").at(-1) ?? "";
	const figures = JSON.parse(last) as Record<string, Record<string, unknown>>;
	expect(Object.keys(figures).sort()).toEqual(["0.73.1", expect.stringMatching(/^1\./)].sort());
	for (const [version, of] of Object.entries(figures)) {
		for (const path of FIGURES) {
			const value = path.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], of);
			expect.soft(value, `${version}: ${path.join(".")}`).toEqual(expect.any(Number));
			expect.soft(Number.isFinite(value), `${version}: ${path.join(".")} is finite`).toBe(true);
		}
	}
});
