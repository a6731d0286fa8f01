/**
 * One ask_user form as one ACP elicitation form (`elicitation/create`, form mode), and the host's answer back as a
 * relay reply, checked like any: for host adapters that show a whole form at once. Pure; `pi-ask-user/elicitation`.
 * Each question has, in ACP's flat subset:
 *
 *   <id>          the choice: an option label, or a list of them (multi-select)
 *   <id>.other    the user's own answer, where free text is allowed
 *   <id>.note     a note on the question
 *
 * A name another question's id holds gets `~` added until free (`propertyNames`).
 */

import { ENGLISH, type Texts } from "../i18n/texts.ts";
import {
	type AskForm,
	type AskQuestion,
	type AskSelection,
	answeredWithoutPreviews,
	emptyCollected,
	LIMITS,
	RELAY_VERSION,
	type RelayReply,
} from "../core/types.ts";
import { decodeRelayReply, encodeRelayReply } from "./envelope.ts";

/** The user's words for the form's own titles: `formToElicitation(form, asker, await loadTexts("ja"))`. */
export { loadTexts } from "../i18n/load.ts";
export type { Texts } from "../i18n/texts.ts";

export type TitledOption = { const: string; title: string; description?: string };

export type ElicitationProperty =
	| { type: "string"; title: string; description?: string; oneOf: TitledOption[] }
	| { type: "string"; title: string; description?: string; maxLength: number }
	| {
			type: "array";
			title: string;
			description?: string;
			items: { anyOf: TitledOption[] };
			minItems?: number;
			maxItems: number;
	  };

export type ElicitationSchema = {
	type: "object";
	title?: string;
	properties: Record<string, ElicitationProperty>;
	required?: string[];
};

/** The `params` of `elicitation/create` (form mode) but the session fields the adapter adds. */
export type ElicitationForm = { mode: "form"; message: string; requestedSchema: ElicitationSchema };

/** What the host answered: ACP's response to `elicitation/create`. */
export type ElicitationResult =
	| { action: "accept"; content?: Record<string, string | number | boolean | string[]> | null }
	| { action: "decline" }
	| { action: "cancel" };

/** The property names of each question: its id, and free names for its text and note. */
export function propertyNames(form: AskForm): Map<string, { choice: string; other: string; note: string }> {
	const taken = new Set(form.questions.map((q) => q.id));
	const free = (name: string) => {
		let candidate = name;
		while (taken.has(candidate)) candidate += "~";
		taken.add(candidate);
		return candidate;
	};
	return new Map(
		form.questions.map((q) => [q.id, { choice: q.id, other: free(`${q.id}.other`), note: free(`${q.id}.note`) }]),
	);
}

export function formToElicitation(form: AskForm, asker?: string, texts: Texts = ENGLISH): ElicitationForm {
	const { t } = texts;
	const properties: Record<string, ElicitationProperty> = {};
	const required: string[] = [];
	const names = propertyNames(form);
	for (const question of form.questions) {
		const name = names.get(question.id) as { other: string; note: string };
		// A text-only question's one field is the free answer.
		const textOnly = question.options.length === 0;
		if (!textOnly) properties[question.id] = choiceProperty(question, texts);
		if (textOnly || question.allowOther)
			properties[name.other] = {
				type: "string",
				title: textOnly ? question.header : t("elicitation.ownAnswer", { header: question.header }),
				description: textOnly
					? questionText(question)
					: t(question.multiSelect ? "elicitation.addedToChosen" : "elicitation.insteadOfOption"),
				maxLength: LIMITS.freeText,
			};
		properties[name.note] = {
			type: "string",
			title: t("elicitation.note", { header: question.header }),
			maxLength: LIMITS.freeText,
		};
		if (question.required && !question.allowOther) required.push(question.id);
		// A required question only text can answer: its text field is what must be filled.
		if (question.required && question.options.length === 0) required.push(name.other);
	}
	const count = form.questions.length;
	const questions = form.questions.map((q) => q.question).join(" / ");
	const message = asker
		? t("elicitation.asks", { asker, count, questions })
		: t("elicitation.agentAsks", { count, questions });
	return {
		mode: "form",
		message,
		requestedSchema: { type: "object", properties, ...(required.length > 0 && { required }) },
	};
}

function choiceProperty(question: AskQuestion, { t }: Texts): ElicitationProperty {
	const options = question.options.map((option) => ({
		const: option.label,
		title: option.recommended ? `${option.label} ${t("question.recommended")}` : option.label,
		...(option.description !== undefined && { description: option.description }),
	}));
	const common = { title: question.header, description: questionText(question) };
	if (!question.multiSelect) return { type: "string", ...common, oneOf: options };
	return {
		type: "array",
		...common,
		items: { anyOf: options },
		...(question.required && !question.allowOther && { minItems: 1 }),
		maxItems: options.length,
	};
}

const questionText = (question: AskQuestion): string =>
	question.context === undefined ? question.question : `${question.question}\n\n${question.context}`;

/** The host's answer as a relay reply, checked like any: accept → "answered"; decline and cancel → "dismissed". */
export function elicitationToReply(
	form: AskForm,
	result: ElicitationResult,
	rid?: string,
): { ok: true; reply: RelayReply } | { ok: false; error: string } {
	const status = result.action === "accept" ? "answered" : "dismissed";
	const reply: RelayReply = { v: RELAY_VERSION, ...(rid !== undefined && { rid }), ...emptyCollected(status) };
	if (result.action !== "accept") return { ok: true, reply };
	const content = result.content ?? {};
	const names = propertyNames(form);
	for (const question of form.questions) {
		const name = names.get(question.id) as { other: string; note: string };
		const selections = selectionsFrom(question, content, name.other);
		if (typeof selections === "string") return { ok: false, error: `elicitation result rejected: ${selections}` };
		if (selections.length > 0)
			reply.answers[question.id] = { kind: question.multiSelect ? "multi" : "single", selections };
		else if (!question.required) reply.skipped.push(question.id);
		const note = textOf(content[name.note]);
		if (note !== undefined) reply.notes.push({ questionId: question.id, text: note });
	}
	// ACP's form has no place for a preview (formToElicitation leaves them out).
	const unseen = answeredWithoutPreviews(form, reply.answers);
	if (unseen.length > 0) reply.previewsUnseen = unseen;
	// Checked like any reply (its rid is the one given).
	return decodeRelayReply(encodeRelayReply(reply), { questions: form.questions });
}

/** The selections a question's properties hold, or what is wrong with them. */
function selectionsFrom(
	question: AskQuestion,
	content: Record<string, unknown>,
	otherName: string,
): AskSelection[] | string {
	const choice = content[question.id];
	const given = choice !== undefined && choice !== null && choice !== "";
	const one = question.multiSelect ? choice : [choice];
	const labels = given ? one : [];
	if (!Array.isArray(labels) || !labels.every((label) => typeof label === "string")) {
		return (
			`${question.id}: expected ${question.multiSelect ? "a list of option labels" : "an option label"} (found ` +
			`${JSON.stringify(choice)})`
		);
	}
	const chosen: AskSelection[] = [];
	for (const label of labels) {
		const option = question.options.find((o) => o.label === label);
		if (!option)
			return (
				`${question.id}: ${JSON.stringify(label)} is not one of its options ` +
				`(${question.options.map((o) => JSON.stringify(o.label)).join(", ")})`
			);
		if (!chosen.some((s) => s.label === label)) chosen.push({ value: option.value, label: option.label });
	}
	const other = question.allowOther ? textOf(content[otherName]) : undefined;
	if (other === undefined) return chosen;
	const custom: AskSelection = { value: other, label: other, custom: true };
	return question.multiSelect ? [...chosen, custom] : [custom];
}

/** A text field's value; blank is none. */
const textOf = (value: unknown): string | undefined =>
	typeof value === "string" && value.trim() !== "" ? value : undefined;

/** The content an accepting host would send for `reply` (for tests, and for adapters that pre-fill `default`s). */
export function replyToElicitationContent(
	form: AskForm,
	reply: Pick<RelayReply, "answers" | "notes">,
): Record<string, string | string[]> {
	const content: Record<string, string | string[]> = {};
	const names = propertyNames(form);
	for (const question of form.questions) {
		const name = names.get(question.id) as { other: string; note: string };
		const selections = reply.answers[question.id]?.selections ?? [];
		const chosen = selections.filter((s) => !s.custom).map((s) => s.label);
		const custom = selections.find((s) => s.custom);
		if (question.multiSelect ? chosen.length > 0 : chosen[0] !== undefined && !custom)
			content[question.id] = question.multiSelect ? chosen : (chosen[0] as string);
		if (custom) content[name.other] = custom.label;
		const note = reply.notes.find((n) => n.questionId === question.id && n.option === undefined);
		if (note) content[name.note] = note.text;
	}
	return content;
}
