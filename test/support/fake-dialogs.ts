/**
 * A scripted stand-in for pi's standard dialogs: each step answers one dialog
 * call, in order, and sees what the dialog showed. Used to drive the dialog
 * walker and the tool's execute flow without a terminal.
 */

import { expect } from "vitest";
import type { DialogUI } from "../../src/walker/walker.ts";

export interface DialogCall {
	method: "select" | "editor";
	title: string;
	/** select: the rows offered; editor: [prefill]. */
	items: string[];
}

/** Returns the answer: a row for select, text for editor, undefined to cancel; a promise answers later, as a person would. */
export type DialogStep = (call: DialogCall) => string | undefined | Promise<string | undefined>;

export interface ScriptedDialogs extends DialogUI {
	calls: DialogCall[];
	/** Steps not yet used: a finished test should have used them all. */
	remaining(): number;
	/**
	 * Every way the script did not fit what the walker asked (a dialog after
	 * the script ran out, a row or dialog kind that was not there). Each one
	 * is also thrown, which the walker turns into an `error` result; kept here
	 * too so a test that never looks at the status still fails.
	 */
	misfits: string[];
}

const opened: ScriptedDialogs[] = [];

/**
 * For afterEach: every script made since the last check was used up and fit
 * every dialog the walker showed. A flow that stops early leaves steps over;
 * one that shows an extra dialog leaves a misfit — whatever the test checked.
 */
export function expectEveryScriptUsedUp(): void {
	for (const ui of opened.splice(0)) {
		expect(ui.misfits, "dialogs the script did not fit").toEqual([]);
		expect(ui.remaining(), "scripted answers never asked for").toBe(0);
	}
}

export function scriptedDialogs(steps: DialogStep[]): ScriptedDialogs {
	const queue = [...steps];
	const calls: DialogCall[] = [];
	const misfits: string[] = [];
	const misfit = (message: string): never => {
		misfits.push(message);
		throw new Error(message);
	};
	const answer = (call: DialogCall): string | undefined | Promise<string | undefined> => {
		calls.push(call);
		const step = queue.shift();
		if (!step) return misfit(`no scripted answer for ${call.method} "${call.title.split("\n")[0]}"`);
		try {
			return step(call);
		} catch (error) {
			return misfit(error instanceof Error ? error.message : String(error));
		}
	};
	const ui: ScriptedDialogs = {
		calls,
		misfits,
		remaining: () => queue.length,
		select: async (title, options) => answer({ method: "select", title, items: options }),
		editor: async (title, prefill) => answer({ method: "editor", title, items: [prefill ?? ""] }),
	};
	opened.push(ui);
	return ui;
}

/**
 * Picks a select row: "2." is the second row (a question's options come
 * first, the recommended one first), anything else the row that starts with
 * it (e.g. "SQLite" or "✓ Done"); fails loudly when absent.
 */
export function pick(prefix: string): DialogStep {
	return (call) => {
		if (call.method !== "select") throw new Error(`expected a select, got ${call.method}: ${call.title}`);
		const nth = /^(\d+)\.$/.exec(prefix);
		const row = nth ? call.items[Number(nth[1]) - 1] : call.items.find((item) => item.startsWith(prefix));
		if (!row) throw new Error(`no row starting with ${JSON.stringify(prefix)} in ${JSON.stringify(call.items)}`);
		return row;
	};
}

/** Types `text` into an editor dialog. */
export function type(text: string): DialogStep {
	return (call) => {
		if (call.method !== "editor") throw new Error(`expected an editor, got ${call.method}: ${call.title}`);
		return text;
	};
}

/** Cancels whatever dialog is open. */
export const cancel: DialogStep = () => undefined;
