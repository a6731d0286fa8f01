import { describe, expect, it } from "vitest";
import { prepareForm } from "../src/tool/call.ts";
import { AskUserInputError } from "../src/input/validate.ts";
import { judge, meets, readRealCalls, shownQuestions } from "./support/real-calls.ts";

const calls = readRealCalls();

describe("real calls other tools received", () => {
	it("every entry names its source and its tool", () => {
		expect(calls.length).toBeGreaterThanOrEqual(50);
		for (const call of calls) {
			expect(call.source).toMatch(/^https:\/\//);
			expect(call.tool.length).toBeGreaterThan(0);
		}
	});

	it.each(calls.map((call, index) => [index, call.tool, call] as const))(
		"call %i (%s) shows what it meant, or is refused where it must be",
		(_index, _tool, call) => {
			if ("refused" in call.expect) {
				const { refused, says } = call.expect;
				expect(() => prepareForm(call.args)).toThrow(AskUserInputError);
				try {
					prepareForm(call.args);
				} catch (error) {
					// The path and the fix come first: the model reads from the top.
					expect((error as AskUserInputError).issues.map((issue) => issue.path).slice(0, refused.length)).toEqual(
						refused,
					);
					for (const words of says) expect((error as Error).message).toContain(words);
				}
			} else {
				const shown = shownQuestions(prepareForm(call.args).form);
				expect(shown).toHaveLength(call.expect.questions.length);
				call.expect.questions.forEach((question, index) => {
					const actual = shown[index];
					// The full comparison, field by field, so a failure shows the difference.
					expect({
						question: actual?.question,
						options: actual?.options,
						multiSelect: actual?.multiSelect,
						recommended: actual?.recommended,
					}).toEqual({
						question: question.question,
						options: question.options,
						multiSelect: question.multiSelect,
						recommended: question.recommended,
					});
					if (question.header !== undefined) expect(actual?.header).toBe(question.header);
					if (question.allowOther !== undefined) expect(actual?.allowOther).toBe(question.allowOther);
					for (const part of question.contextIncludes ?? []) expect(actual?.contextIncludes?.[0]).toContain(part);
					expect(actual?.values ?? {}).toEqual(question.values ?? {});
				});
			}
			expect(judge(call, prepareForm)).toEqual({ right: true });
		},
	);

	it("the judge tells a wrong form from a right one", () => {
		const [call] = calls;
		if (call === undefined || "refused" in call.expect) throw new Error("the corpus starts with an accepted call");
		const expected = call.expect.questions[0];
		if (expected === undefined) throw new Error("no question");
		const shown = shownQuestions(prepareForm(call.args).form)[0];
		if (shown === undefined) throw new Error("nothing shown");
		expect(meets(shown, expected)).toBe(true);
		expect(meets({ ...shown, multiSelect: !shown.multiSelect }, expected)).toBe(false);
		expect(meets({ ...shown, options: shown.options.slice(1) }, expected)).toBe(false);
		expect(meets(shown, { ...expected, recommended: "nothing" })).toBe(false);
	});
});
