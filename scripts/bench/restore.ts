/**
 * A form that comes back after `pi --continue`, timed as the user sees it: in tmux, from pi's first frame (the scripted
 * model's name in its footer) to the form on screen ("Restored"). The form is left open with text typed, pi killed
 * with SIGKILL, then the session continued `runs` times, each killed again once the form is back (it stays kept).
 */

import { readFileSync } from "node:fs";
import type { PiCommand } from "../isolated-pi.mjs";
import { keptFiles, script, TEXT } from "../../test/support/kept-fixtures.ts";
import { createPiEnv, type PiEnv } from "../../test/support/pi-env.ts";
import { TmuxPi } from "../../test/support/tmux.ts";

export const RESTORE_TARGET_MS = 300;

/** Until `done` holds, polling; fails after 30 s. */
async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (!(await done())) {
		if (Date.now() > deadline) throw new Error(`restore bench: timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

const keptText = (env: PiEnv): string =>
	keptFiles(env)
		.map((file) => readFileSync(file, "utf8"))
		.join("");

async function killed(tui: TmuxPi): Promise<void> {
	process.kill(tui.pid, "SIGKILL");
	await tui.waitForExit();
	await tui.kill();
}

/** Each run's milliseconds from pi's first frame to the restored form, and their median. */
export async function measureRestore(runs: number, pi?: PiCommand): Promise<{ medianMs: number; runsMs: number[] }> {
	const env = createPiEnv({ script: script(), sessions: true, ...(pi && { pi }) });
	try {
		const first = await TmuxPi.start(env);
		await first.waitForReady();
		await first.type("ask");
		await first.send("Enter");
		await first.waitFor("Which database");
		await first.send("2");
		await first.waitFor("Anything else");
		await first.type(TEXT);
		await until(() => keptText(env).includes(TEXT), "the typed text kept beside the session");
		await killed(first);
		const runsMs: number[] = [];
		for (let run = 0; run < runs; run++) {
			const tui = await TmuxPi.start(env, { extraArgs: ["--continue"] });
			let ready = 0;
			await until(async () => {
				const screen = await tui.capture();
				if (ready === 0 && screen.includes("scripted")) ready = performance.now();
				return ready > 0 && screen.includes("Restored");
			}, "the restored form");
			runsMs.push(performance.now() - ready);
			await killed(tui);
		}
		const sorted = [...runsMs].sort((a, b) => a - b);
		return { medianMs: Math.round(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN), runsMs };
	} finally {
		env.cleanup();
	}
}
