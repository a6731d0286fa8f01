/**
 * Kept forms whose module cannot load (a broken install): said once, with the
 * first form to keep, never again at the next forms, starts and ends; the
 * forms work. A session with no forms kept never loads it at its start.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { PRELOAD_DELAY_MS } from "../src/route/router.ts";
import { loadExtension, oneQuestion, recordingUser } from "./support/extension.ts";

vi.mock("../src/kept/restore.ts", () => {
	throw new Error("restore.ts is missing");
});

it("a kept-forms module that cannot load is said once, with the first form to keep; forms are answered without it", async () => {
	const { ctx, notes } = recordingUser();
	const extension = loadExtension();
	for (const reason of ["startup", "new", "resume"]) {
		await extension.fire("session_start", { type: "session_start", reason }, ctx);
		await extension.fire("session_shutdown", { type: "session_shutdown", reason }, ctx);
	}
	expect(notes).toEqual([]);
	const params = extension.tool.prepareArguments ? extension.tool.prepareArguments(oneQuestion) : oneQuestion;
	for (const id of ["k1", "k2"]) {
		const result = await extension.tool.execute(id, params as never, undefined, undefined, ctx);
		expect(result.details).toMatchObject({ status: "dismissed" });
	}
	await extension.fire("session_start", { type: "session_start", reason: "new" }, ctx);
	expect(notes).toEqual([
		expect.stringMatching(
			/^ask_user: forms cannot be kept past pi here \(.+\): they work, but one left unanswered ends with pi\.$/,
		),
	]);
});

it("in a session kept in a file, the background preload that cannot load the kept forms says nothing, and the first form to keep says it once", async () => {
	const { ctx, notes } = recordingUser();
	const dir = mkdtempSync(join(tmpdir(), "ask-user-unloadable-"));
	const sessionManager = { getEntries: () => [], getSessionFile: () => join(dir, "session.jsonl") };
	const session = { ...ctx, sessionManager } as unknown as typeof ctx;
	try {
		const extension = loadExtension();
		await extension.fire("session_start", { type: "session_start", reason: "startup" }, session);
		// The preload runs PRELOAD_DELAY_MS after the start, and fails quietly; a session switch after it says nothing.
		await new Promise((resolve) => setTimeout(resolve, PRELOAD_DELAY_MS + 700));
		await extension.fire("session_shutdown", { type: "session_shutdown", reason: "new" }, session);
		await extension.fire("session_start", { type: "session_start", reason: "new" }, session);
		expect(notes).toEqual([]);
		const params = extension.tool.prepareArguments ? extension.tool.prepareArguments(oneQuestion) : oneQuestion;
		const result = await extension.tool.execute("k1", params as never, undefined, undefined, session);
		expect(result.details).toMatchObject({ status: "dismissed" });
		expect(notes).toEqual([expect.stringMatching(/^ask_user: forms cannot be kept past pi here/)]);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
