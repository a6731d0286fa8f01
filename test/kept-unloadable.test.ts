/**
 * Kept forms whose module cannot load (a broken install): said once, at a
 * session start, never again at the next starts and ends; the forms work.
 */

import { expect, it, vi } from "vitest";
import { loadExtension, oneQuestion, recordingUser } from "./support/extension.ts";

vi.mock("../src/kept/restore.ts", () => {
	throw new Error("restore.ts is missing");
});

it("a kept-forms module that cannot load is said once; sessions start and end, and a form is answered, without it", async () => {
	const { ctx, notes } = recordingUser();
	const extension = loadExtension();
	for (const reason of ["startup", "new", "resume"]) {
		await extension.fire("session_start", { type: "session_start", reason }, ctx);
		await extension.fire("session_shutdown", { type: "session_shutdown", reason }, ctx);
	}
	expect(notes).toEqual([
		expect.stringMatching(
			/^ask_user: forms cannot be kept past pi here \(.+\): they work, but one left unanswered ends with pi\.$/,
		),
	]);
	const params = extension.tool.prepareArguments ? extension.tool.prepareArguments(oneQuestion) : oneQuestion;
	const result = await extension.tool.execute("k1", params as never, undefined, undefined, ctx);
	expect(result.details).toMatchObject({ status: "dismissed" });
	expect(notes).toHaveLength(1);
});
