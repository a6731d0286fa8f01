/**
 * The complete form in pi's real TUI, driven through tmux: a text-only
 * question, a note on the whole form, a reply in chat instead of the form.
 * Each test ends by checking what the scripted model received.
 */

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ASK, askScript, onlyAskResult, TWO_QUESTIONS, submitTwoQuestions } from "../support/ask-fixtures.ts";
import { QUOTE_PREFIX } from "../support/model-script.ts";
import { createPiEnv, type PiEnv } from "../support/pi-env.ts";
import { TmuxPi } from "../support/tmux.ts";
import { endPiTest } from "../support/harness.ts";

let piEnv: PiEnv | undefined;
let tui: TmuxPi | undefined;

afterEach(async () => {
	const started = { tui, piEnv };
	tui = undefined;
	piEnv = undefined;
	await endPiTest(started);
});

/** Starts pi, says ASK, and waits for the form to show `firstQuestion`. */
async function openForm(
	args: unknown,
	firstQuestion: string,
	options: { env?: Record<string, string>; rows?: number } = {},
) {
	piEnv = createPiEnv({ script: askScript(args), ...(options.env ? { env: options.env } : {}) });
	tui = await TmuxPi.start(piEnv, { cols: 100, rows: options.rows ?? 40 });
	await tui.waitForReady();
	await tui.type(ASK);
	await tui.send("Enter");
	await tui.waitFor(firstQuestion);
	return { env: piEnv, screen: tui };
}

const SERVICE_NAME = {
	questions: [{ id: "name", header: "Name", question: "What should the new service be called?" }],
};

describe("the complete form in the TUI", () => {
	it("a text-only question opens in the editor; the typed text is the answer", async () => {
		const { env, screen } = await openForm(SERVICE_NAME, "What should the new service");
		await screen.waitFor("Your answer:");
		await screen.type("billing-api");
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["name"]?.selections).toEqual([
			{ value: "billing-api", label: "billing-api", custom: true },
		]);
		expect(seen.text).toContain('name: wrote "billing-api"');
	});

	it("typing on “Type something…” writes there, even keys that act elsewhere (c, s, a digit): the text is the answer", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which database");
		// ↑ wraps to the last row, "You decide"; "Type something…" is just above it.
		await screen.send("Up", "Up");
		await screen.type("cache it, skip 2");
		await screen.waitFor("cache it, skip 2");
		await submitTwoQuestions(screen);
		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.answers["db"]?.selections).toEqual([
			{ value: "cache it, skip 2", label: "cache it, skip 2", custom: true },
		]);
	});

	it("a number key chooses its option and moves on", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which database");
		await screen.send("2");
		await screen.waitFor("What should the command");
		await screen.send("2");
		await screen.waitFor("Review your answers");
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);
		const seen = onlyAskResult(env);
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "SQLite", label: "SQLite" }]);
		expect(seen.details.answers["cli"]?.selections).toEqual([{ value: "launch-cli", label: "launch" }]);
	});

	it("p folds the form to one line, showing the conversation above; p brings it back with the answers and the focus", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which database", { rows: 16 });
		await screen.send("Enter");
		await screen.waitFor("What should the command");
		await screen.send("Down", "p");
		await screen.waitFor("ask_user waits (1 of 2 answered)");
		await screen.waitForGone("What should the command");
		// The conversation above the form (here the call's own transcript line) takes the rows the form gave up.
		expect(await screen.capture()).toContain("Waiting for the user");
		await screen.send("p");
		await screen.waitFor("What should the command");
		await screen.send("Enter");
		await screen.waitFor("Review your answers");
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		const seen = onlyAskResult(env);
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
		// The focus came back on "launch", where it was before the fold.
		expect(seen.details.answers["cli"]?.selections).toEqual([{ value: "launch-cli", label: "launch" }]);
	});

	it("ctrl+g in the editor runs $EDITOR on the text and takes the result back", async () => {
		const dir = mkdtempSync(join(tmpdir(), "ask-e2e-editor-"));
		const editor = join(dir, "editor.sh");
		writeFileSync(editor, `#!/bin/sh\nprintf ' and from the editor' >> "$1"\n`);
		chmodSync(editor, 0o755);
		try {
			const { env, screen } = await openForm(TWO_QUESTIONS, "Which database", { env: { EDITOR: editor, VISUAL: "" } });
			await screen.send("3");
			await screen.waitFor("Your answer");
			await screen.type("typed");
			await screen.send("C-g");
			await screen.waitFor("typed and from the editor");
			await screen.send("Enter");
			await screen.waitFor("What should the command");
			await screen.send("1");
			await screen.waitFor("Review your answers");
			await screen.send("Enter");
			await screen.waitFor(QUOTE_PREFIX);
			expect(onlyAskResult(env).details.answers["db"]?.selections).toEqual([
				{ value: "typed and from the editor", label: "typed and from the editor", custom: true },
			]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it("a markdown preview is rendered as pi renders markdown; a plain one as written", async () => {
		const preview = "## Migration plan\n\n- keep the **schema**\n- add `retries`\n\n```ts\nconst retries = 3;\n```";
		const form = {
			questions: [
				{
					id: "plan",
					header: "Plan",
					question: "Which plan?",
					options: [
						{ label: "Careful", preview },
						{ label: "Fast", preview: "# not a heading in code?\n+ added line" },
					],
				},
			],
		};
		const { screen } = await openForm(form, "Which plan?", { rows: 40 });
		const shown = await screen.waitFor("Migration plan");
		expect(shown).not.toContain("## Migration plan");
		expect(shown).not.toContain("**schema**");
		expect(shown).toContain("const retries = 3;");
		await screen.send("Down");
		await screen.waitFor("# not a heading in code?");
	});

	it("a note on the whole form, written on the Submit tab, reaches the model", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which database");
		await screen.send("Enter");
		await screen.waitFor("What should the command");
		await screen.send("Enter");
		await screen.waitFor("add a note on the whole form");
		await screen.send("n");
		await screen.waitFor("Your note on the whole form");
		await screen.type("and don't touch the schema");
		await screen.send("Enter");
		await screen.waitFor("Note on the whole form: and don't");
		await screen.send("Enter");
		await screen.waitFor(QUOTE_PREFIX);

		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("answered");
		expect(seen.details.notes).toEqual([{ text: "and don't touch the schema" }]);
		expect(seen.text).toContain(`Note on the whole form: "and don't touch the schema"`);
	});

	it("reply in chat instead: the message reaches the model as the user's words, with the answers so far, and the turn goes on", async () => {
		const { env, screen } = await openForm(TWO_QUESTIONS, "Which database");
		await screen.send("Enter");
		await screen.waitFor("What should the command");
		await screen.send("c");
		await screen.waitFor("Your message");
		// Enter sends the message (and closes the form): the hint says send, not save.
		await screen.waitFor("enter send");
		await screen.type("Let's talk about the name first");
		await screen.send("Enter");
		// The model was called again on its own: the turn did not end.
		await screen.waitFor(QUOTE_PREFIX);

		const seen = onlyAskResult(env);
		expect(seen.details.status).toBe("chat");
		expect(seen.details.chatMessage).toBe("Let's talk about the name first");
		expect(seen.details.answers["db"]?.selections).toEqual([{ value: "Postgres", label: "Postgres" }]);
		expect(seen.text).toContain(`The user's message: "Let's talk about the name first"`);
	});
});
