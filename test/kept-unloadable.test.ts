/**
 * Kept forms whose module cannot load (a broken install): said once, with the
 * first form to keep, never again at the next forms, starts and ends; the
 * forms work. A session with no forms kept never loads it at its start, and
 * a session kept nowhere (no session file) never loads it at all.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { PRELOAD_DELAY_MS } from "../src/route/router.ts";
import { loadExtension, oneQuestion, recordingUser } from "./support/extension.ts";

vi.mock("../src/kept/restore.ts", () => {
	throw new Error("restore.ts is missing");
});

const CANNOT_KEEP =
	/^ask_user: forms cannot be kept past pi here \(.+\): they work, but one left unanswered ends with pi\.$/;

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The recording user in a session kept in a file (of a fresh folder, with no forms kept yet). */
function keptSession() {
	const { ctx, notes } = recordingUser();
	const dir = mkdtempSync(join(tmpdir(), "ask-user-unloadable-"));
	dirs.push(dir);
	const sessionManager = { getEntries: () => [], getSessionFile: () => join(dir, "session.jsonl") };
	return { ctx: { ...ctx, sessionManager } as unknown as typeof ctx, notes };
}

async function ask(extension: ReturnType<typeof loadExtension>, ctx: unknown, id: string) {
	const params = extension.tool.prepareArguments ? extension.tool.prepareArguments(oneQuestion) : oneQuestion;
	const result = await extension.tool.execute(id, params as never, undefined, undefined, ctx as never);
	expect(result.details).toMatchObject({ status: "dismissed" });
}

it("a kept-forms module that cannot load is said once, with the first form to keep; forms are answered without it", async () => {
	const { ctx, notes } = keptSession();
	const extension = loadExtension();
	for (const reason of ["startup", "new", "resume"]) {
		await extension.fire("session_start", { type: "session_start", reason }, ctx);
		await extension.fire("session_shutdown", { type: "session_shutdown", reason }, ctx);
	}
	expect(notes).toEqual([]);
	for (const id of ["k1", "k2"]) await ask(extension, ctx, id);
	await extension.fire("session_start", { type: "session_start", reason: "new" }, ctx);
	expect(notes).toEqual([expect.stringMatching(CANNOT_KEEP)]);
});

it("a session kept nowhere never loads the kept forms: nothing to say", async () => {
	const { ctx, notes } = recordingUser();
	const extension = loadExtension();
	await extension.fire("session_start", { type: "session_start", reason: "startup" }, ctx);
	await ask(extension, ctx, "k1");
	expect(notes).toEqual([]);
});

it("the background preload that cannot load the kept forms says nothing; the first form to keep says it once", async () => {
	const { ctx, notes } = keptSession();
	const extension = loadExtension();
	await extension.fire("session_start", { type: "session_start", reason: "startup" }, ctx);
	// The preload runs PRELOAD_DELAY_MS after the start, and fails quietly; a session switch after it says nothing.
	await new Promise((resolve) => setTimeout(resolve, PRELOAD_DELAY_MS + 700));
	await extension.fire("session_shutdown", { type: "session_shutdown", reason: "new" }, ctx);
	await extension.fire("session_start", { type: "session_start", reason: "new" }, ctx);
	expect(notes).toEqual([]);
	await ask(extension, ctx, "k1");
	expect(notes).toEqual([expect.stringMatching(CANNOT_KEEP)]);
});
