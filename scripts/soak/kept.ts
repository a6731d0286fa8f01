/**
 * Kept files under faults, in the real pi TUI (tmux) with a session file, around the form of test/support/kept-forms.ts
 * (option 2 chosen on the first question, a text typed into the second's editor and saved on disk):
 * - bad files beside a good one (not JSON, cut in half, over 1 MiB), then pi killed and continued: the form comes back
 *   with everything typed, and one warning names each bad file;
 * - the open form's own file cut in half, then pi continued: one warning names it, and pi goes on;
 * - the folder made read-only (a read-only bind mount; where mounting is not allowed, a file in the folder's place)
 *   and a full disk (a 64 KiB tmpfs on the folder, filled; else the same file) while the form is open: the user goes
 *   on typing and submits, the model gets every word, one warning names the file, nothing is left in the folder;
 * - two pis on one session: the second leaves the first's open form alone, and the first's answer reaches its call.
 */

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { AskDetails } from "../../src/core/types.ts";
import {
	expectTheAnswer,
	keptFiles,
	keptStatuses,
	killWithFormOpen,
	openAndType,
	script,
	submitRestored,
	TEXT,
} from "../../test/support/kept-forms.ts";
import { QUOTE_PREFIX } from "../../test/support/model-script.ts";
import { createPiEnv, type PiEnv } from "../../test/support/pi-env.ts";
import { TmuxPi } from "../../test/support/tmux.ts";
import { leftRunning } from "./sequential.ts";
import { soon } from "./soon.ts";

export interface FaultOutcome {
	/** The form went on and its answer (or, after a restart, its late answer) reached the model with everything typed. */
	form: "went on" | "not restored, as it cannot be" | "lost";
	/** Warnings on screen about kept files, and whether the one there names every file at fault. */
	warnings: number;
	named: boolean;
	/** Files left in the kept folder afterwards that are not a form's own (aside files of failed writes, bad files). */
	leftBehind: number;
	/** How the fault was made, where there is a choice. */
	how?: string;
}

export interface KeptFigures {
	badFiles: FaultOutcome;
	ownFileCut: FaultOutcome;
	readOnly: FaultOutcome;
	fullDisk: FaultOutcome;
	twoPis: FaultOutcome;
	leftRunning: number;
}

const DROPPED = "a saved form was dropped";
const NOT_SAVED = "cannot be saved";
const MORE = " and more typed";

export async function soakKept(log: (line: string) => void): Promise<KeptFigures> {
	let running = 0;
	const each = async (
		name: string,
		fault: (env: PiEnv, started: { tui?: TmuxPi | undefined }) => Promise<FaultOutcome>,
	) => {
		const env = createPiEnv({ script: script(true), sessions: true });
		const started: { tui?: TmuxPi | undefined } = {};
		try {
			const outcome = await fault(env, started);
			log(
				`kept: ${name}: the form ${outcome.form}, ${outcome.warnings} warning${outcome.warnings === 1 ? "" : "s"}${outcome.how ? ` (${outcome.how})` : ""}`,
			);
			return outcome;
		} finally {
			await started.tui?.kill();
			running += await leftRunning(env);
			env.cleanup();
		}
	};
	return {
		badFiles: await each("bad files beside a good one", badFiles),
		ownFileCut: await each("the open form's own file cut in half", ownFileCut),
		readOnly: await each("a read-only folder", (env, started) => cannotWrite(env, started, "read-only")),
		fullDisk: await each("a full disk", (env, started) => cannotWrite(env, started, "full")),
		twoPis: await each("two pis on one session", twoPis),
		leftRunning: running,
	};
}

/** Not JSON, cut in half, over 1 MiB: beside the good file of a form left open by a killed pi; then pi --continue. */
async function badFiles(env: PiEnv, started: { tui?: TmuxPi | undefined }): Promise<FaultOutcome> {
	await killWithFormOpen(env, started);
	const [good] = keptFiles(env) as [string];
	const folder = dirname(good);
	const bad = {
		"corrupt.json": "{ not json",
		"cut.json": readFileSync(good, "utf8").slice(0, 40),
		"big.json": `{"pad":"${"x".repeat(1.1 * 1024 * 1024)}"}`,
	};
	for (const [name, text] of Object.entries(bad)) writeFileSync(join(folder, name), text, { mode: 0o600 });
	const again = (started.tui = await TmuxPi.start(env, { extraArgs: ["--continue"] }));
	const screen = flat(await again.waitFor("Restored"));
	let form: FaultOutcome["form"] = "lost";
	try {
		expectTheAnswer(await submitRestored(again, env));
		form = "went on";
	} catch {
		// Counted as lost.
	}
	return {
		form,
		warnings: count(screen, DROPPED),
		named: Object.keys(bad).every((name) => screen.includes(name)),
		leftBehind: readdirSync(folder).filter((name) => Object.keys(bad).includes(name)).length,
	};
}

/** The open form's own file cut in half while pi is away: it cannot come back; pi says why and goes on. */
async function ownFileCut(env: PiEnv, started: { tui?: TmuxPi | undefined }): Promise<FaultOutcome> {
	await killWithFormOpen(env, started);
	const [own] = keptFiles(env) as [string];
	writeFileSync(own, readFileSync(own, "utf8").slice(0, 60));
	const again = (started.tui = await TmuxPi.start(env, { extraArgs: ["--continue"] }));
	const screen = flat(await again.waitFor(DROPPED));
	await sleep(500);
	const after = await again.capture();
	return {
		form: after.includes("Restored") ? "lost" : "not restored, as it cannot be",
		warnings: count(screen, DROPPED),
		named: screen.includes(basename(own)),
		leftBehind: readdirSync(dirname(own)).length,
	};
}

/**
 * The folder takes no writes from the moment the form opens: read-only, or a full disk. The user chooses, types,
 * saves the text and submits; the model must get all of it.
 */
async function cannotWrite(
	env: PiEnv,
	started: { tui?: TmuxPi | undefined },
	fault: "read-only" | "full",
): Promise<FaultOutcome> {
	const tui = (started.tui = await TmuxPi.start(env));
	await tui.waitForReady();
	await tui.type("ask");
	await tui.send("Enter");
	await tui.waitFor("Which database");
	const folder = `${sessionFile(env)}.ask-user`;
	// The fault is there before the form's first save (half a second after it opens); one that came first goes.
	mkdirSync(folder, { recursive: true, mode: 0o700 });
	for (const name of readdirSync(folder)) rmSync(join(folder, name), { force: true });
	const undo = fault === "read-only" ? readOnly(folder) : diskFull(folder);
	try {
		await tui.send("2");
		await tui.waitFor("Anything else");
		await tui.type(TEXT);
		// The warning comes with the first save that fails, half a second after the first change; none is a finding.
		const screen = flat(
			await tui.waitFor((text) => flat(text).includes(flat(NOT_SAVED)), 5_000).catch(() => tui.capture()),
		);
		// More typing, more saves that fail: still the one warning.
		await tui.type(MORE);
		await sleep(1_200);
		const later = flat(await tui.capture());
		await tui.send("Enter");
		await tui.waitFor("Review your answers");
		await tui.send("Enter");
		await tui.waitFor(QUOTE_PREFIX);
		const [result] = env.toolResults("ask_user");
		const answers = (result?.details as AskDetails | undefined)?.answers;
		const complete =
			answers?.["db"]?.selections[0]?.label === "SQLite" && answers["why"]?.selections[0]?.label === `${TEXT}${MORE}`;
		const left =
			existsSync(folder) && !undo.how.startsWith("a file")
				? readdirSync(folder).filter((name) => name !== "filler")
				: [];
		return {
			form: complete ? "went on" : "lost",
			warnings: Math.max(count(screen, NOT_SAVED), count(later, NOT_SAVED)),
			named: screen.includes(flat(folder)),
			leftBehind: left.length,
			how: undo.how,
		};
	} finally {
		undo.undo();
	}
}

/** A read-only bind mount of the folder on itself; where mounting is not allowed, a file in the folder's place. */
function readOnly(folder: string): { how: string; undo(): void } {
	try {
		execFileSync("mount", ["--bind", folder, folder], { stdio: "ignore" });
		try {
			execFileSync("mount", ["-o", "remount,ro,bind", folder], { stdio: "ignore" });
		} catch (error) {
			execFileSync("umount", [folder], { stdio: "ignore" });
			throw error;
		}
		return { how: "a read-only bind mount", undo: () => execFileSync("umount", [folder], { stdio: "ignore" }) };
	} catch {
		return aFileInItsPlace(folder);
	}
}

/** A 64 KiB tmpfs over the folder, filled to the last byte; where mounting is not allowed, a file in the folder's place. */
function diskFull(folder: string): { how: string; undo(): void } {
	try {
		execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", folder], { stdio: "ignore" });
		try {
			writeFileSync(join(folder, "filler"), Buffer.alloc(128 * 1024));
		} catch {
			// Full: what was wanted.
		}
		return { how: "a 64 KiB tmpfs, filled", undo: () => execFileSync("umount", [folder], { stdio: "ignore" }) };
	} catch {
		return aFileInItsPlace(folder);
	}
}

/** Where this machine lets nobody mount: a file in the (empty) folder's place, so every write fails. */
function aFileInItsPlace(folder: string): { how: string; undo(): void } {
	rmSync(folder, { recursive: true, force: true });
	writeFileSync(folder, "");
	return {
		how: "a file in the folder's place (mounting is not allowed here)",
		undo: () => rmSync(folder, { force: true }),
	};
}

/** The session's file (pi writes it with the first message). */
function sessionFile(env: PiEnv): string {
	const sessions = join(env.env["PI_CODING_AGENT_DIR"] as string, "sessions");
	const file = (readdirSync(sessions, { recursive: true }) as string[]).find((name) => name.endsWith(".jsonl"));
	if (!file) throw new Error("pi wrote no session file");
	return join(sessions, file);
}

/** The first pi holds its form open; a second on the same session (--continue) must leave it alone. */
async function twoPis(env: PiEnv, started: { tui?: TmuxPi | undefined }): Promise<FaultOutcome> {
	const first = await openAndType(env, started);
	const second = await TmuxPi.start(env, { extraArgs: ["--continue"] });
	let screen = "";
	try {
		await second.waitForReady();
		// Past the moment a form would come back by itself.
		await sleep(1_000);
		screen = flat(await second.capture());
	} finally {
		await second.kill();
	}
	const keptWhileSecondRan = keptFiles(env).length;
	await first.send("Enter");
	await first.waitFor("Review your answers");
	await first.send("Enter");
	await first.waitFor(QUOTE_PREFIX);
	await soon(() => env.toolResults("ask_user").length === 1, "the first pi's answer");
	const why = (env.toolResults("ask_user")[0]?.details as AskDetails | undefined)?.answers["why"]?.selections[0]?.label;
	return {
		form: why === TEXT && keptWhileSecondRan === 1 && !screen.includes("Restored") ? "went on" : "lost",
		warnings: count(screen, DROPPED) + count(screen, NOT_SAVED),
		named: true,
		// The answered form stays, for a revision; nothing else may.
		leftBehind: keptStatuses(env).filter((status) => status !== "answered").length,
	};
}

/** The screen without its spaces and line breaks: pi wraps a long warning anywhere. */
const flat = (screen: string) => screen.replace(/\s+/g, "");
const count = (text: string, what: string) => flat(text).split(flat(what)).length - 1;
