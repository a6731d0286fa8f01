/**
 * Forms kept on disk while the user works, so nothing typed is lost when pi is not there to take the answer: one JSON
 * file per ask beside the session file (`<session>.jsonl.ask-user/`), replaced whole (written aside, then renamed)
 * within half a second of the first change of a burst, with the state as it is then.
 *
 * Not pi's session entries: the session file only grows, so every pause in typing would add an entry every load
 * replays, and two pi processes appending to one session interleave; an ask's own file is only replaced whole.
 * A file holds the answers and a fingerprint of the questions, never the questions: they are read again from the
 * session (the model's call) when the form comes back, and a file whose fingerprint no longer matches is dropped.
 *
 * A form is known by its call id and the session entry (the assistant message) holding the call: some providers reuse
 * call ids across turns. The folder and its files are the user's alone (0700, 0600, whatever the umask).
 */

import { createHash, randomBytes } from "node:crypto";
import {
	chmodSync,
	closeSync,
	fchmodSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { type Static, Type } from "@sinclair/typebox";
import { isObject, own } from "../core/json.ts";
import { schemaIssues } from "../core/schema.ts";
import { ASK_STATUSES, type AskForm, type AskStatus, errorText, type Keeper, type Phrase } from "../core/types.ts";
import { answeredState } from "../machine/saved.ts";

export const KEPT_VERSION = 1;
/** How long after a change (the first of a burst) the answers are written. */
export const SAVE_DELAY_MS = 500;
/** A file larger than this is not written (the last one that fit stays) and, when found, dropped. */
export const MAX_KEPT_BYTES = 1024 * 1024;
/** The newest this many forms of a session without an answer are kept, and as many answered ones; older are dropped. */
export const MAX_KEPT = 20;

/**
 * "open": the form was on screen when pi stopped; "answered": submitted (the answers as they were, for a revision);
 * otherwise how the call ended without an answer.
 */
export type KeptStatus = "open" | Exclude<AskStatus, "no_ui">;
const STATUSES: KeptStatus[] = ["open", ...ASK_STATUSES.filter((status) => status !== "no_ui")];

/** A kept file, as read back: checked against this schema before anything in it is believed. */
const KeptFormSchema = Type.Object({
	version: Type.Literal(KEPT_VERSION),
	/** The tool call's id. */
	id: Type.String(),
	/** The session entry (the assistant message) holding the call; absent in a file written before entries were kept. */
	entry: Type.Optional(Type.String()),
	/** The pi process that wrote it last, and when it started (Linux: clock ticks after boot): a reused pid is not it. */
	pid: Type.Number(),
	started: Type.Optional(Type.Number()),
	status: Type.Union(STATUSES.map((status) => Type.Literal(status))),
	/** When it was written; for an answered form, when it was (last) submitted. */
	savedAt: Type.Number(),
	fingerprint: Type.String(),
	/** SavedAnswers (src/machine/saved.ts), checked against the form before use. */
	answers: Type.Unknown(),
});

export type KeptForm = Omit<Static<typeof KeptFormSchema>, "status"> & { status: KeptStatus };

export function fingerprint(form: AskForm): string {
	return createHash("sha256").update(JSON.stringify(form.questions)).digest("hex").slice(0, 32);
}

/** What a kept form is known by: its call, in its session entry. */
export type KeptKey = Pick<KeptForm, "id" | "entry">;

/** `<call id>@<entry>.json`, each encoded (`@` too, so no two keys share a name); `<call id>.json` without an entry. */
const fileOf = (dir: string, { id, entry }: KeptKey) =>
	join(dir, `${encodeURIComponent(id)}${entry === undefined ? "" : `@${encodeURIComponent(entry)}`}.json`);

/**
 * The forms kept in `dir`, newest first; what cannot be used is deleted and said in `problems` (English, for a
 * warning).
 */
export function readKept(dir: string): { forms: KeptForm[]; problems: string[] } {
	const forms: KeptForm[] = [];
	const problems: string[] = [];
	let names: string[];
	try {
		// A folder an older version left open to others is closed; one that is not the user's is not read.
		chmodSync(dir, 0o700);
		names = readdirSync(dir);
	} catch {
		return { forms, problems };
	}
	// A write cut short (pi killed between writing and renaming) leaves its aside file: removed once its writer is gone.
	for (const name of names) {
		const writer = /\.json\.(\d+)(?:\.[0-9a-f]+)?\.tmp$/.exec(name)?.[1];
		if (writer !== undefined && !heldByAnotherPi({ pid: Number(writer) })) remove(join(dir, name));
	}
	names = names.filter((name) => name.endsWith(".json"));
	for (const name of names) {
		const file = join(dir, name);
		const problem = readOne(file, forms);
		if (problem === undefined) continue;
		problems.push(`${name}: ${problem}`);
		remove(file);
	}
	return { forms: newest(dir, forms), problems };
}

/** `forms` newest first, the MAX_KEPT newest of each kind (answered or not); the files of the rest removed. */
function newest(dir: string, forms: KeptForm[]): KeptForm[] {
	forms.sort((a, b) => b.savedAt - a.savedAt);
	const answered = forms.filter((kept) => kept.status === "answered");
	const old = new Set([
		...answered.slice(MAX_KEPT),
		...forms.filter((kept) => !answered.includes(kept)).slice(MAX_KEPT),
	]);
	for (const kept of old) remove(fileOf(dir, kept));
	return forms.filter((kept) => !old.has(kept));
}

/**
 * After an answer is kept: once the folder holds more forms than both kinds may, the oldest go. Nothing is read before
 * that; a bad file is left for the next reading, which says so.
 */
function keepWithinLimits(dir: string): void {
	let names: string[];
	try {
		names = readdirSync(dir).filter((name) => name.endsWith(".json"));
	} catch {
		return;
	}
	if (names.length <= 2 * MAX_KEPT) return;
	const forms: KeptForm[] = [];
	for (const name of names) readOne(join(dir, name), forms);
	newest(dir, forms);
}

function readOne(file: string, into: KeptForm[]): string | undefined {
	try {
		if (statSync(file).size > MAX_KEPT_BYTES) return `larger than ${MAX_KEPT_BYTES} bytes`;
		const kept: unknown = JSON.parse(readFileSync(file, "utf8"));
		const version = isObject(kept) ? own(kept, "version") : undefined;
		if (version !== KEPT_VERSION)
			return `written by another version of pi-ask-user (${JSON.stringify(version ?? null)})`;
		const [issue] = schemaIssues(KeptFormSchema, kept);
		if (issue) return `not a saved form: ${[issue.path, issue.message].join(" ").trim()}`;
		into.push(kept as KeptForm);
		return undefined;
	} catch (error) {
		return error instanceof SyntaxError ? "not valid JSON" : `unreadable (${errorText(error)})`;
	}
}

export function dropKept(dir: string, key: KeptKey): void {
	remove(fileOf(dir, key));
}

/** Best effort: a file that cannot be removed (permissions) is left, never an error for the form. */
function remove(file: string): void {
	try {
		rmSync(file, { force: true });
	} catch {
		// Left as it is.
	}
}

/**
 * Another pi process that is still running holds this form on screen: the same pid, started at the same time, not
 * exited.
 */
export function heldByAnotherPi({ pid, started }: Pick<KeptForm, "pid" | "started">): boolean {
	if (pid === process.pid) return false;
	try {
		process.kill(pid, 0);
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
	const stat = processStat(pid);
	// No /proc (not Linux): the signal's answer stands.
	if (stat === undefined) return true;
	return stat.state !== "Z" && (started === undefined || stat.started === started);
}

/**
 * A process's state and start time, from /proc/<pid>/stat (fields 3 and 22, read after the last ")": the name may hold
 * anything).
 */
function processStat(pid: number | "self"): { state: string; started: number } | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		return { state: fields[0] ?? "", started: Number(fields[19]) };
	} catch {
		return undefined;
	}
}

/**
 * Writes `json` as `file` in the user's own folder: aside first, created new (O_EXCL) under a name no one can predict,
 * so nothing planted there is followed; then renamed over the file whole. A failed write leaves nothing behind.
 */
function replaceWhole(dir: string, file: string, json: string): void {
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	chmodSync(dir, 0o700);
	const aside = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
	const fd = openSync(aside, "wx", 0o600);
	try {
		try {
			fchmodSync(fd, 0o600);
			writeFileSync(fd, json);
		} finally {
			closeSync(fd);
		}
		renameSync(aside, file);
	} catch (error) {
		remove(aside);
		throw error;
	}
}

const STARTED = processStat("self")?.started;

/**
 * A form's keeper: the form reports its changes (FormKeep); the ask's end says what stays. `key` is asked at the first
 * write, not before: pi 0.73 may append the call's message after the call has started.
 */
export function createKeeper(
	dir: string,
	key: () => KeptKey,
	form: AskForm,
	{
		restored,
		closing,
		failed,
	}: {
		restored?: { answers: unknown; notice: Phrase };
		closing(): boolean;
		/**
		 * The first write that fails (a read-only folder, a full disk): the file it was for, and why. Said once per form.
		 */
		failed?(file: string, reason: string): void;
	},
): Keeper {
	let answers: unknown = restored?.answers;
	let said = false;
	let take: (() => unknown) | undefined;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const print = fingerprint(form);
	let known: KeptKey | undefined;
	const where = () => (known ??= key());
	const write = (status: KeptStatus) => {
		let file: string | undefined;
		if (timer !== undefined) clearTimeout(timer);
		timer = undefined;
		try {
			if (take) answers = take();
			if (answers === undefined) return;
			const { id, entry } = where();
			const kept: KeptForm = {
				version: KEPT_VERSION,
				id,
				...(entry !== undefined && { entry }),
				pid: process.pid,
				...(STARTED !== undefined && { started: STARTED }),
				status,
				savedAt: Date.now(),
				fingerprint: print,
				answers,
			};
			const json = JSON.stringify(kept);
			if (Buffer.byteLength(json) > MAX_KEPT_BYTES) return;
			file = fileOf(dir, { id, entry });
			replaceWhole(dir, file, json);
		} catch (error) {
			// A read-only or full disk: the form goes on; only what would survive pi is lost, and the user is told once.
			if (said || file === undefined) return;
			said = true;
			try {
				failed?.(file, (error as NodeJS.ErrnoException).code ?? errorText(error));
			} catch {
				// Whoever listens cannot break the form: this runs off a timer, where a throw would stop pi.
			}
		}
	};
	return {
		...(restored && { restored }),
		changed(latest) {
			take = latest;
			if (timer !== undefined) return;
			timer = setTimeout(() => write("open"), SAVE_DELAY_MS);
			timer.unref?.();
		},
		flush: () => write("open"),
		end(status, collected) {
			if (closing()) return write("open");
			clearTimeout(timer);
			timer = undefined;
			if (status === "no_ui") return;
			// Submitted: kept as submitted (from the page or the walker as from the form), for a revision by /ask-user.
			if (status === "answered" && collected) [take, answers] = [undefined, answeredState(form, collected)];
			write(status);
			if (status === "answered") keepWithinLimits(dir);
		},
	};
}
