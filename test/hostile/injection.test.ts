/**
 * Terminal injection in every model-supplied field (header, question,
 * context, label, value, description, preview, id, asker, metadata, error,
 * notices) never reaches what is drawn or sent on: the form's every view, the
 * dialog walker's titles and rows, the transcript, and the result text the
 * model reads. What is allowed in a line is defined in
 * support/terminal-safety.ts.
 *
 * The forms here are built directly, past validation (which refuses control
 * characters in one-line fields): the display must be safe on its own, for a
 * relayed form or a future field as much as for a validated call.
 */

import { initTheme, type Theme } from "@mariozechner/pi-coding-agent";
import { setKeybindings } from "@mariozechner/pi-tui";
import { beforeAll, describe, expect, test } from "vitest";
import { buildDetails, formatResultText } from "../../src/tool/result.ts";
import { collectWithDialogs } from "../../src/walker/walker.ts";
import { AskFormComponent } from "../../src/form/component.ts";
import { formThemeFrom } from "../../src/form/theme.ts";
import { renderCallText, renderResultText } from "../../src/tool/transcript.ts";
import { callModule, createAskUserTool } from "../../src/tool/tool.ts";
import type { AskForm, AskQuestion, AskStatus, Collected } from "../../src/core/types.ts";
import { quietTui } from "../form/fake-terminal.ts";
import { KEY, piKeybindings } from "../form/support.ts";
import { expectEveryScriptUsedUp, pick, scriptedDialogs, type } from "../support/fake-dialogs.ts";
import { expectSafe, INJECTIONS, injected, unsafeReason } from "./support/terminal-safety.ts";

// prepareArguments is the real one only once what a call runs has loaded (pi: before the first run).
await callModule();

let theme: Theme;

beforeAll(() => {
	initTheme("dark");
	// pi keeps its theme on globalThis (theme.js); the real one, so its colour codes are in every line.
	theme = (globalThis as Record<symbol, Theme>)[Symbol.for("@mariozechner/pi-coding-agent:theme")]!;
	setKeybindings(piKeybindings());
});

/** Three questions with an injection around every text: single with previews, multi, optional without free text. */
function hostileForm(): AskForm {
	let n = 0;
	const next = (text: string) => injected(text, n++);
	const options = (count: number, previews: boolean) =>
		Array.from({ length: count }, (_, i) => ({
			label: next(`Option ${i}`),
			value: next(`value-${i}`),
			description: next(`Description ${i}\nsecond line`),
			...(previews ? { preview: next(`line one\nline two ${"x".repeat(30)}\n\tindented`) } : {}),
			recommended: i === 0,
		}));
	const question = (index: number, extra: Partial<AskQuestion>): AskQuestion => ({
		id: next(`q${index}`),
		header: next(`H${index}`),
		question: next(`Which thing number ${index}?`),
		context: next("Some context\nover two lines"),
		options: options(4, false),
		multiSelect: false,
		allowOther: true,
		required: true,
		...extra,
	});
	return {
		questions: [
			question(0, { options: options(4, true) }),
			question(1, { multiSelect: true }),
			question(2, { required: false, allowOther: false }),
		],
		metadata: { source: next("source"), flowId: next("flow"), tags: [next("tag")] },
	};
}

function hostileCollected(form: AskForm, status: AskStatus): Collected {
	const [q0, q1, q2] = form.questions as [AskQuestion, AskQuestion, AskQuestion];
	const typed = injected("typed by a relayed child", 99);
	return {
		status,
		answers: {
			[q0.id]: {
				kind: "single",
				selections: [{ value: q0.options[1]!.value, label: q0.options[1]!.label }],
				note: typed,
			},
			[q1.id]: {
				kind: "multi",
				selections: [
					{ value: q1.options[0]!.value, label: q1.options[0]!.label },
					{ value: typed, label: typed, custom: true },
				],
			},
		},
		skipped: [q2.id],
		notes: [
			{ questionId: q0.id, text: typed },
			{ questionId: q1.id, option: q1.options[0]!.label, text: typed },
		],
		...(status === "error" ? { error: injected("the relay reply was broken", 5) } : {}),
	};
}

describe("the form's views", () => {
	test("every view at every width: options, previews, notes, help, editor, messages, review", () => {
		const form = hostileForm();
		for (const width of [12, 40, 83, 84, 120, 200]) {
			const { tui } = quietTui(width, 40);
			const component = new AskFormComponent({
				tui,
				theme: formThemeFrom(theme),
				keybindings: piKeybindings(),
				numberKeys: "focus",
				form,
				asker: injected("planner › scout", 3),
				onDone: () => {},
			});
			component.focused = true;
			const seen: string[] = [];
			const look = (what: string) => {
				const lines = component.render(width);
				expectSafe(`${what} at ${width} columns`, lines);
				seen.push(...lines);
			};
			const press = (what: string, ...keys: string[]) => {
				for (const key of keys) component.handleInput(key);
				look(what);
			};
			look("first question");
			for (const row of ["2", "3", "4", "5"]) press(`option ${row} focused`, row);
			press("a long preview scrolled", KEY.pageDown, KEY.pageDown);
			press("the note editor on an option", "1", "n");
			press("a note typed", ..."my note", KEY.enter);
			press("help", "?");
			press("help scrolled", KEY.pageDown);
			press("back from help", "?");
			press("skipping a required question", "s");
			press("second question (multi)", KEY.tab, KEY.space, KEY.down, KEY.space);
			press("a free answer", "5", KEY.enter, ..."mine", KEY.enter);
			press("third question (optional)", KEY.tab);
			press("review", KEY.tab);
			press("submit refused: a required question missing", KEY.enter);
			press("Esc armed", KEY.escape);
			// The screens above did show the model's text (sanitised), not just nothing.
			expect(seen.join("\n")).toContain("Which");
			expect(seen.join("\n")).toContain("Opt");
		}
	});

	test("text the user typed or pasted (kept exactly) is shown sanitised once saved", () => {
		const form = hostileForm();
		const { tui } = quietTui(100, 40);
		const component = new AskFormComponent({
			tui,
			theme: formThemeFrom(theme),
			keybindings: piKeybindings(),
			form,
			onDone: () => {},
			numberKeys: "focus",
		});
		// A bracketed paste keeps C1 characters (pi-tui's Editor drops only < U+0020); the views must not.
		component.handleInput("5");
		component.handleInput(KEY.enter);
		component.handleInput(KEY.paste("pasted \x9b2J and \x85 and \u202eevil"));
		component.handleInput(KEY.enter);
		expect(component.currentState.questions[0]?.customText).toContain("\x9b2J");
		for (const key of ["", KEY.tab, KEY.tab, KEY.tab]) {
			if (key) component.handleInput(key);
			expectSafe("the saved free answer on the form and in the review", component.render(100));
		}
	});
});

describe("the dialog walker (RPC)", () => {
	test("every title and row of a whole walk: options, free text, note, skip, review", async () => {
		const form = hostileForm();
		const typed = injected("typed in the client", 7);
		const ui = scriptedDialogs([
			pick("1."),
			pick("1."),
			pick("✎ Type something…"),
			type(typed),
			pick("✎ Add a note…"),
			type(typed),
			pick("✓ Done"),
			pick("↷ Skip"),
			pick("✓ Submit"),
		]);
		const result = await collectWithDialogs(ui, form, { asker: injected("planner › scout", 11) });
		expect(result.status).toBe("answered");
		expectEveryScriptUsedUp();
		for (const call of ui.calls) {
			expectSafe(`${call.method} title`, [call.title], { newlines: true });
			if (call.method === "select") expectSafe("select rows", call.items);
		}
	});
});

describe("the transcript", () => {
	test("the call line while streaming, from raw arguments", () => {
		const raw = { questions: hostileForm().questions.map((q) => ({ header: q.header, question: q.question })) };
		expectSafe("renderCall", [renderCallText(raw, theme)]);
		expectSafe("renderCall, partial JSON text", [renderCallText({ questions: `[{"header":"${INJECTIONS[0]}` }, theme)]);
	});

	test.each<AskStatus | "pending">(["answered", "dismissed", "aborted", "no_ui", "timed_out", "error", "pending"])(
		"the result, compact and expanded: %s",
		(status) => {
			const form = hostileForm();
			const collected = hostileCollected(form, status === "pending" ? "aborted" : status);
			const details = {
				...buildDetails(form, collected, { notices: [injected("a notice", 17)] }),
				asker: injected("planner › scout", 13),
				status,
			};
			for (const expanded of [false, true]) {
				const text = renderResultText(details, expanded, theme);
				expectSafe(`renderResult ${expanded ? "expanded" : "compact"}`, text.split("\n"));
				// While pending the transcript only keeps count; otherwise the expanded view lists every option.
				if (expanded && status !== "pending") expect(text).toContain("Option");
			}
		},
	);
});

describe("the result text the model reads", () => {
	test.each<AskStatus>(["answered", "dismissed", "aborted", "no_ui", "timed_out", "error"])(
		"%s: control characters only as JSON escapes",
		(status) => {
			const form = hostileForm();
			const text = formatResultText(form, hostileCollected(form, status), {
				notices: [injected("normalisation notice", 19)],
			});
			expectSafe("formatResultText", [text], { newlines: true });
			// What the user typed is still there, exactly, as a JSON string.
			expect(text).toContain(JSON.stringify("typed by a relayed child").slice(1, -1));
		},
	);

	test("through the tool: a call the model sent with injections everywhere it may put text", async () => {
		const tool = createAskUserTool({
			getActiveTools: () => ["ask_user"],
			setActiveTools: () => {},
			ask: async () => ({ status: "no_ui", answers: {}, skipped: [], notes: [] }),
		});
		// Multi-line fields may hold anything validation lets through; one-line fields with controls would be refused.
		const raw = {
			questions: [
				{
					question: "Which database?",
					context: INJECTIONS.join(" "),
					options: [
						{ label: "Postgres", description: INJECTIONS.join("\n"), preview: INJECTIONS.join("\n") },
						{ label: "SQLite", description: "plain" },
						{ label: "Other (please specify)" },
					],
				},
			],
			metadata: { source: INJECTIONS.join(""), tags: [...INJECTIONS] },
			// prepareArguments carries its notices to execute under this key; a model can send it too.
			__askUserPrepared: { stamp: "a guess", notices: [...INJECTIONS] },
		};
		const prepared = tool.prepareArguments!(raw);
		const result = await tool.execute("call-1", prepared as never, undefined, undefined, { hasUI: false } as never);
		const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
		const reason = unsafeReason(text, { newlines: true });
		expect(reason, `result text: ${reason}`).toBeUndefined();
		expect(text).toContain("No UI available");
	});
});
