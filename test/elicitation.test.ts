/**
 * One ask_user form as one ACP elicitation form, and back: every form maps to
 * a schema within ACP's restricted subset, and every reply an accepting host
 * could give maps back to the same relay reply.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeRelayReply, encodeRelayReply } from "../src/relay/envelope.ts";
import {
	elicitationToReply,
	formToElicitation,
	loadTexts,
	propertyNames,
	replyToElicitationContent,
} from "../src/relay/elicitation.ts";
import {
	type AskForm,
	type AskQuestion,
	type AskSelection,
	RELAY_VERSION,
	type RelayReply,
} from "../src/core/types.ts";
import { DB_QUESTION } from "./support/ask-fixtures.ts";
import { arbAskForm } from "./support/arbitraries.ts";

/** ACP's restricted form schema (agent-client-protocol schema v1, elicitation.rs): what a host must be able to render. */
function restrictedSchemaProblems(schema: unknown): string[] {
	const problems: string[] = [];
	const object = schema as { type?: unknown; properties?: Record<string, Record<string, unknown>>; required?: unknown };
	if (object.type !== "object") problems.push("top level: type must be object");
	const keysOf = (value: object) => Object.keys(value);
	const allowed: Record<string, string[]> = {
		string: ["type", "title", "description", "minLength", "maxLength", "pattern", "format", "default", "enum", "oneOf"],
		array: ["type", "title", "description", "minItems", "maxItems", "items", "default"],
	};
	for (const [name, property] of Object.entries(object.properties ?? {})) {
		const type = String(property["type"]);
		const keys = allowed[type];
		if (!keys) {
			problems.push(`${name}: type ${type} is not a primitive or multi-select`);
			continue;
		}
		for (const key of keysOf(property))
			if (!keys.includes(key)) problems.push(`${name}: ${key} is not allowed on a ${type}`);
		const options =
			type === "array"
				? (property["items"] as { anyOf?: unknown[] } | undefined)?.anyOf
				: (property["oneOf"] as unknown[] | undefined);
		for (const option of options ?? []) {
			const entry = option as Record<string, unknown>;
			if (typeof entry["const"] !== "string" || typeof entry["title"] !== "string")
				problems.push(`${name}: an option needs a string const and title`);
			for (const key of keysOf(entry))
				if (!["const", "title", "description"].includes(key)) problems.push(`${name}: option key ${key}`);
		}
		if (type === "array" && !options) problems.push(`${name}: a multi-select needs items.anyOf`);
		// Property values a host sends back are flat: nested objects are not in the subset.
		if (typeof property["title"] !== "string") problems.push(`${name}: title must be a string`);
	}
	if (
		object.required !== undefined &&
		!(
			Array.isArray(object.required) &&
			object.required.every((r) => typeof r === "string" && r in (object.properties ?? {}))
		)
	) {
		problems.push("required must list properties");
	}
	return problems;
}

const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== "");

/** An answer a user could give to `question`: undefined for a skip (optional questions only). */
function arbAnswerOf(question: AskQuestion): fc.Arbitrary<AskSelection[] | undefined> {
	const option = (i: number): AskSelection => ({
		value: question.options[i]!.value,
		label: question.options[i]!.label,
	});
	const indices = question.options.map((_, i) => i);
	const custom = question.allowOther
		? fc.option(
				text.map((t): AskSelection => ({ value: t, label: t, custom: true })),
				{ nil: undefined },
			)
		: fc.constant(undefined);
	const answer: fc.Arbitrary<AskSelection[]> = question.multiSelect
		? fc
				.tuple(fc.shuffledSubarray(indices), custom)
				.map(([chosen, typed]) => [...chosen.map(option), ...(typed ? [typed] : [])])
				.filter((s) => s.length > 0)
		: fc.oneof(
				...(indices.length > 0 ? [fc.constantFrom(...indices).map((i) => [option(i)])] : []),
				...(question.allowOther ? [text.map((t) => [{ value: t, label: t, custom: true as const }])] : []),
			);
	return question.required ? answer : fc.option(answer, { nil: undefined });
}

function arbReplyOf(form: AskForm): fc.Arbitrary<RelayReply> {
	return fc
		.tuple(...form.questions.map((q) => fc.tuple(arbAnswerOf(q), fc.option(text, { nil: undefined }))))
		.map((perQuestion) => {
			const reply: RelayReply = { v: RELAY_VERSION, status: "answered", answers: {}, skipped: [], notes: [] };
			perQuestion.forEach(([selections, note], i) => {
				const question = form.questions[i]!;
				if (selections) reply.answers[question.id] = { kind: question.multiSelect ? "multi" : "single", selections };
				else reply.skipped.push(question.id);
				if (note !== undefined) reply.notes.push({ questionId: question.id, text: note });
			});
			return reply;
		});
}

describe("a form as an ACP elicitation", () => {
	it("every form maps to ACP's restricted subset, and every reply comes back the same", () => {
		fc.assert(
			fc.property(
				arbAskForm().chain((form) => fc.tuple(fc.constant(form), arbReplyOf(form))),
				([form, reply]) => {
					const { requestedSchema } = formToElicitation(form, "scout");
					expect(restrictedSchemaProblems(requestedSchema)).toEqual([]);
					// Every property a question uses exists, and no two questions share one.
					const names = [...propertyNames(form).values()].flatMap((n) => [n.choice, n.other, n.note]);
					expect(new Set(names).size).toBe(names.length);
					const back = elicitationToReply(form, { action: "accept", content: replyToElicitationContent(form, reply) });
					if (!back.ok) throw new Error(back.error);
					const expected = decodeRelayReply(encodeRelayReply(reply), { questions: form.questions });
					if (!expected.ok) throw new Error(`the generated reply is invalid: ${expected.error}`);
					// ACP's form shows no previews: the reply says so when the form has some.
					const { previewsUnseen, ...rest } = back.reply;
					expect(rest).toEqual(expected.reply);
					const withPreviews = form.questions.filter((q) => q.options.some((option) => option.preview !== undefined));
					const answered = withPreviews.filter((q) => Object.hasOwn(back.reply.answers, q.id)).map((q) => q.id);
					expect(previewsUnseen).toEqual(answered.length > 0 ? answered : undefined);
				},
			),
			{ numRuns: 300 },
		);
	});

	it("a single-select question: titled options, the recommended one marked, its text and note fields", () => {
		const form: AskForm = { questions: [{ ...DB_QUESTION, context: "We run Postgres already." }] };
		const elicitation = formToElicitation(form);
		expect(elicitation.message).toBe("The agent asks 1 question: Which database?");
		expect(elicitation.requestedSchema.properties).toEqual({
			db: {
				type: "string",
				title: "Database",
				description: "Which database?\n\nWe run Postgres already.",
				oneOf: [
					{ const: "Postgres", title: "Postgres (recommended)" },
					{ const: "SQLite", title: "SQLite" },
				],
			},
			"db.other": {
				type: "string",
				title: "Database: your own answer",
				description: "Instead of choosing an option.",
				maxLength: 4000,
			},
			"db.note": { type: "string", title: "Database: a note", maxLength: 4000 },
		});
		// Free text may answer it, so the choice itself is not required of the host.
		expect(elicitation.requestedSchema.required).toBeUndefined();
	});

	it("declined or cancelled is dismissed; accepted text beats a choice in a single-select", () => {
		const form: AskForm = { questions: [DB_QUESTION] };
		for (const action of ["decline", "cancel"] as const) {
			expect(elicitationToReply(form, { action }, "r1")).toEqual({
				ok: true,
				reply: { v: 1, rid: "r1", status: "dismissed", answers: {}, skipped: [], notes: [] },
			});
		}
		const typed = elicitationToReply(form, {
			action: "accept",
			content: { db: "Postgres", "db.other": "MariaDB", "db.note": "  " },
		});
		expect(typed).toMatchObject({
			ok: true,
			reply: { answers: { db: { selections: [{ value: "MariaDB", label: "MariaDB", custom: true }] } }, notes: [] },
		});
	});

	it("a form with previews: an accepted answer says the user did not see them; one declined says nothing", () => {
		const options = DB_QUESTION.options.map((option) => ({ ...option, preview: `-- ${option.label}` }));
		const form: AskForm = { questions: [{ ...DB_QUESTION, options }] };
		expect(JSON.stringify(formToElicitation(form))).not.toContain("-- ");
		const label = options[0]?.label ?? "";
		const accepted = elicitationToReply(form, { action: "accept", content: { db: label } });
		expect(accepted).toMatchObject({ ok: true, reply: { status: "answered", previewsUnseen: ["db"] } });
		expect(elicitationToReply(form, { action: "decline" })).toMatchObject({ ok: true, reply: { status: "dismissed" } });
		expect(elicitationToReply(form, { action: "decline" })).not.toHaveProperty("reply.previewsUnseen");
	});

	it("an answer that does not fit is an error naming the property and the rule", () => {
		const form: AskForm = { questions: [DB_QUESTION] };
		const unknown = elicitationToReply(form, { action: "accept", content: { db: "Oracle" } });
		expect(unknown).toEqual({ ok: false, error: expect.stringContaining('db: "Oracle" is not one of its options') });
		const missing = elicitationToReply(form, { action: "accept", content: {} });
		expect(missing.ok).toBe(false);
		const wrongType = elicitationToReply(form, { action: "accept", content: { db: ["Postgres"] } });
		expect(wrongType).toEqual({ ok: false, error: expect.stringContaining("expected an option label") });
	});

	it("a required question only text can answer requires its text field of the host", () => {
		const form: AskForm = { questions: [{ ...DB_QUESTION, options: [] }] };
		expect(formToElicitation(form).requestedSchema.required).toEqual(["db.other"]);
	});

	it("ids that look like another question's field names still get fields of their own", () => {
		const form: AskForm = {
			questions: [
				{ ...DB_QUESTION, id: "db" },
				{ ...DB_QUESTION, id: "db.other" },
			],
		};
		const names = propertyNames(form);
		expect(names.get("db")?.other).toBe("db.other~");
		expect(names.get("db.other")?.other).toBe("db.other.other");
	});
});

describe("in the user's language", () => {
	it("the form's own titles and message are the locale's; the model's text as given", async () => {
		const ja = await loadTexts("ja");
		const { message, requestedSchema } = formToElicitation(
			{ questions: [DB_QUESTION, { ...DB_QUESTION, id: "db2", question: "Which database, again?" }] },
			"scout",
			ja,
		);
		expect(message).toBe(
			ja.t("elicitation.asks", { asker: "scout", count: 2, questions: "Which database? / Which database, again?" }),
		);
		expect(requestedSchema.properties["db.other"]?.title).toBe(ja.t("elicitation.ownAnswer", { header: "Database" }));
		expect(requestedSchema.properties["db.note"]?.title).toBe(ja.t("elicitation.note", { header: "Database" }));
		const db = requestedSchema.properties["db"];
		expect(db && "oneOf" in db ? db.oneOf[0]?.title : undefined).toBe(`Postgres ${ja.t("question.recommended")}`);
	});
});
