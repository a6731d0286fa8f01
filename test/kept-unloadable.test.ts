/**
 * Kept forms whose module cannot load (a broken install): said once, with the
 * first form to keep, never again at the next forms, starts and ends; the
 * forms work. A session with no forms kept never loads it at its start.
 */

import { expect, it, vi } from "vitest";
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
