/**
 * The corpus of real calls (test/fixtures/real-calls/*.json): argument objects
 * that real models sent to other tools' ask-the-user tools, each with its
 * source, and what the form must show for each. Read by the corpus test and
 * by the first-call figure of `npm run bench`.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AskForm } from "../../src/core/types.ts";

/** What the user must see for one question; absent fields are not checked. */
export interface ExpectedQuestion {
	question: string;
	header?: string;
	/** The labels, in order; [] for a question answered in the user's words. */
	options: string[];
	/** The values where they differ from the labels, by label. */
	values?: Record<string, string>;
	multiSelect: boolean;
	/** The label of the recommended option, when there is one. */
	recommended?: string;
	/** Text the context must hold (what normalisation moved there). */
	contextIncludes?: string[];
	/** Whether the free-text row is offered, where the call said. */
	allowOther?: boolean;
}

export interface RealCall {
	/** Where the call was found: the repository file or issue, or the page. */
	source: string;
	/** The tool it was sent to. */
	tool: string;
	/** How the arguments were read from the source, when that took a step. */
	note?: string;
	args: unknown;
	/** Accepted, showing these questions; or refused, with these paths named first and a message that says these words. */
	expect: { questions: ExpectedQuestion[] } | { refused: string[]; says: string[] };
}

const DIRECTORY = join(import.meta.dirname, "..", "fixtures", "real-calls");

export function readRealCalls(directory = DIRECTORY): RealCall[] {
	return readdirSync(directory)
		.filter((name) => name.endsWith(".json"))
		.sort()
		.flatMap((name) => JSON.parse(readFileSync(join(directory, name), "utf8")) as RealCall[]);
}

/** What the form shows, in the shape of the expectation, for comparison. */
export function shownQuestions(form: AskForm): ExpectedQuestion[] {
	return form.questions.map((question) => {
		const values = Object.fromEntries(
			question.options.filter((option) => option.value !== option.label).map((option) => [option.label, option.value]),
		);
		const recommended = question.options.find((option) => option.recommended)?.label;
		return {
			question: question.question,
			header: question.header,
			options: question.options.map((option) => option.label),
			...(Object.keys(values).length > 0 ? { values } : {}),
			multiSelect: question.multiSelect,
			...(recommended === undefined ? {} : { recommended }),
			...(question.context === undefined ? {} : { contextIncludes: [question.context] }),
			allowOther: question.allowOther,
		};
	});
}

/** Does the shown question meet the expectation? Fields the expectation leaves out are not compared. */
export function meets(shown: ExpectedQuestion, expected: ExpectedQuestion): boolean {
	const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
	if (
		shown.question !== expected.question ||
		!same(shown.options, expected.options) ||
		shown.multiSelect !== expected.multiSelect
	)
		return false;
	if (expected.header !== undefined && shown.header !== expected.header) return false;
	if (shown.recommended !== expected.recommended) return false;
	if (!same(shown.values ?? {}, expected.values ?? {})) return false;
	if (expected.allowOther !== undefined && shown.allowOther !== expected.allowOther) return false;
	const context = shown.contextIncludes?.[0] ?? "";
	return (expected.contextIncludes ?? []).every((part) => context.includes(part));
}

export type Verdict = { right: true } | { right: false; why: string };

/**
 * One call, the way pi sends it: `prepare` is the tool's prepareArguments
 * path (normalise, validate, throw the refusal). Right when the form shows
 * what the call meant, or when an expected refusal names the expected paths first.
 */
export function judge(call: RealCall, prepare: (raw: unknown) => { form: AskForm }): Verdict {
	let form: AskForm;
	try {
		form = prepare(structuredClone(call.args)).form;
	} catch (error) {
		const issues = (error as { issues?: { path: string }[] }).issues ?? [];
		if (!("refused" in call.expect))
			return { right: false, why: `refused: ${String((error as Error).message).split("\n")[1] ?? error}` };
		const first = issues.slice(0, call.expect.refused.length).map((issue) => issue.path);
		if (JSON.stringify(first) !== JSON.stringify(call.expect.refused))
			return { right: false, why: `refused at ${first.join(", ")}` };
		const message = String((error as Error).message);
		const missing = call.expect.says.filter((words) => !message.includes(words));
		return missing.length === 0
			? { right: true }
			: { right: false, why: `refused without saying ${JSON.stringify(missing)}` };
	}
	if ("refused" in call.expect) return { right: false, why: "accepted" };
	const shown = shownQuestions(form);
	const expected = call.expect.questions;
	if (shown.length !== expected.length) return { right: false, why: `${shown.length} questions shown` };
	const wrong = expected.findIndex((question, index) => !meets(shown[index] as ExpectedQuestion, question));
	return wrong < 0
		? { right: true }
		: { right: false, why: `questions[${wrong}] shows ${JSON.stringify(shown[wrong])}` };
}
