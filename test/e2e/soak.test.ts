/**
 * The soak's smoke version (`npm run soak -- --smoke`, scripts/soak.mjs): every part against the real pi, small.
 * The script's last line is its figures; each invariant is asserted here by name, so a failure says which.
 */

import { spawn } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { SoakFigures } from "../../scripts/soak/main.ts";
import { REPO_ROOT } from "../support/pi-env.ts";

function soak(args: string[]): Promise<{ code: number | null; out: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [join(REPO_ROOT, "scripts", "soak.mjs"), ...args], {
			stdio: ["ignore", "pipe", "pipe"],
		});
		let out = "";
		child.stdout.on("data", (chunk: Buffer) => {
			out += chunk.toString("utf8");
		});
		child.stderr.on("data", (chunk: Buffer) => {
			out += chunk.toString("utf8");
		});
		child.on("error", reject);
		child.on("exit", (code) => resolve({ code, out }));
	});
}

it("npm run soak -- --smoke: children killed and answered, asks one after another, the page and the channel flooded, kept files at fault; its last line holds every figure, and every invariant holds", async () => {
	const { code, out } = await soak(["--smoke"]);
	const figures = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as SoakFigures;
	expect(figures.failed, out.slice(-4000)).toEqual([]);
	expect(code).toBe(0);
	expect(figures.ok).toBe(true);

	const { children, sequential, web, channel, kept } = figures as Required<{
		[K in keyof SoakFigures]: Exclude<SoakFigures[K], { error: string }>;
	}>;
	expect(children).toMatchObject({ deliveredOnce: true, leftOnScreen: 0, leftRunning: 0 });
	expect(children.killed).toBeGreaterThan(0);
	expect(children.answered).toBeGreaterThan(0);
	expect(children.abortedWithRun + children.orphaned).toBeGreaterThan(0);

	expect(sequential).toMatchObject({ answered: sequential.asks, asGiven: true, keptLeft: 0, leftRunning: 0 });
	expect(sequential.typed).toBeGreaterThan(0);
	expect(sequential.timersLeft).toBeLessThanOrEqual(0);

	expect(web.answered).toBe(web.of);
	expect(web.fuzzed).toBeGreaterThanOrEqual(300);
	expect(web.slowOpened).toBeGreaterThan(web.slowloris);

	expect(channel.served).toBe(channel.of);

	for (const fault of ["badFiles", "readOnly", "fullDisk"] as const)
		expect(kept[fault], fault).toMatchObject({ form: "went on", warnings: 1, named: true, leftBehind: 0 });
	expect(kept.ownFileCut).toMatchObject({ warnings: 1, named: true });
	expect(kept.twoPis).toMatchObject({ form: "went on", warnings: 0 });
	expect(kept.leftRunning).toBe(0);
});
