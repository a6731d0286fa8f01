/**
 * showAskForm, the entry point the tool calls: how it talks to ctx.ui.custom,
 * the abort signal, RPC hosts that show nothing, and exactly-once completion.
 */

import type { ExtensionUIContext, Theme } from "@mariozechner/pi-coding-agent";
import { type Component, type KeybindingsManager, setKeybindings, type TUI } from "@mariozechner/pi-tui";
import { describe, expect, test, vi } from "vitest";
import { blockedOn, showAskForm, warmUpForm } from "../../src/form/show.ts";
import { loadTexts } from "../../src/i18n/load.ts";
import type { AskProgress } from "../../src/core/types.ts";
import { quietTui } from "./fake-terminal.ts";
import { KEY, piKeybindings, SCOPE_AND_TARGETS } from "./support.ts";

const fakeTheme = {
	fg: (_color: string, s: string) => s,
	bg: (_color: string, s: string) => s,
	bold: (s: string) => s,
} as unknown as Theme;

type Factory = Parameters<ExtensionUIContext["custom"]>[0];

/** A ctx.ui that shows the component the way pi's TUI does: it calls the factory and resolves with what done() got. */
function tuiHost(options: { keybindings?: KeybindingsManager; deferFactory?: Promise<void> } = {}) {
	const shown: { component?: Component & { handleInput?(data: string): void; dispose?(): void } } = {};
	const done = vi.fn();
	const ui: Pick<ExtensionUIContext, "custom"> = {
		custom: (<T>(factory: Factory) =>
			new Promise<T>((resolve) => {
				const { tui } = quietTui();
				// Like pi, the factory is called synchronously; its component may be a promise.
				const show = () => {
					const component = factory(
						tui as TUI,
						fakeTheme,
						(options.keybindings ?? piKeybindings()) as never,
						(result: unknown) => {
							done(result);
							resolve(result as T);
						},
					);
					if (component instanceof Promise) void component.then((c) => (shown.component = c));
					else shown.component = component;
				};
				if (options.deferFactory) void options.deferFactory.then(show);
				else show();
			})) as ExtensionUIContext["custom"],
	};
	return { ui, shown, done };
}

describe("showAskForm", () => {
	test("resolves with what the user submitted", async () => {
		const host = tuiHost();
		const result = showAskForm(host.ui, SCOPE_AND_TARGETS);
		for (const key of [KEY.enter, KEY.enter, KEY.enter]) host.shown.component?.handleInput?.(key);
		await expect(result).resolves.toMatchObject({ status: "answered", answers: { scope: {}, targets: {} } });
	});

	test("a form pi drops without done() (disposed on /reload or a session switch) ends the ask as aborted, what was typed kept, and leaves pi's done alone", async () => {
		const host = tuiHost();
		const result = showAskForm(host.ui, SCOPE_AND_TARGETS);
		for (const key of ["4", KEY.enter, "h", "i"]) host.shown.component?.handleInput?.(key);
		host.shown.component?.dispose?.();
		await expect(result).resolves.toMatchObject({ status: "aborted", drafts: [{ questionId: "scope", text: "hi" }] });
		expect(host.done).not.toHaveBeenCalled();
		// Disposed after done() (every close pi makes), nothing more happens.
		const closed = tuiHost();
		const answered = showAskForm(closed.ui, SCOPE_AND_TARGETS);
		for (const key of [KEY.enter, KEY.enter, KEY.enter]) closed.shown.component?.handleInput?.(key);
		closed.shown.component?.dispose?.();
		await expect(answered).resolves.toMatchObject({ status: "answered" });
		expect(closed.done).toHaveBeenCalledTimes(1);
	});

	test("an already-aborted signal resolves aborted without showing anything", async () => {
		const custom = vi.fn();
		const result = await showAskForm({ custom } as never, SCOPE_AND_TARGETS, { signal: AbortSignal.abort() });
		expect(custom).not.toHaveBeenCalled();
		expect(result).toEqual({ status: "aborted", answers: {}, skipped: [], notes: [] });
	});

	test("tells pi it waits on a question (1.x's blocked status): the tool and the count, in the user's language, never the model's words", async () => {
		const custom = vi.fn(async (_factory: unknown, _options: unknown) => undefined);
		await showAskForm({ custom } as never, SCOPE_AND_TARGETS);
		expect(custom.mock.calls[0]?.[1]).toEqual({ blocked: { kind: "question", message: "ask_user · 2 questions" } });
		const one = { questions: [SCOPE_AND_TARGETS.questions[0]!] };
		expect(blockedOn(one)).toEqual({ kind: "question", message: "ask_user · 1 question" });
		expect(blockedOn(SCOPE_AND_TARGETS, await loadTexts("ru")).message).toBe("ask_user · 2 вопроса");
	});

	test("resolves undefined when the host shows nothing (RPC: custom resolves undefined without calling the factory)", async () => {
		const custom = vi.fn(async () => undefined);
		await expect(showAskForm({ custom } as never, SCOPE_AND_TARGETS)).resolves.toBeUndefined();
	});

	test("the abort signal closes the open form at once, keeping the answers", async () => {
		const host = tuiHost();
		const controller = new AbortController();
		const result = showAskForm(host.ui, SCOPE_AND_TARGETS, { signal: controller.signal });
		host.shown.component?.handleInput?.(KEY.enter);
		controller.abort();
		await expect(result).resolves.toMatchObject({
			status: "aborted",
			answers: { scope: { selections: [{ label: "Small" }] } },
		});
		expect(host.done).toHaveBeenCalledTimes(1);
	});

	test("an abort before pi calls the factory closes the form as soon as it is built", async () => {
		let release = () => {};
		const host = tuiHost({ deferFactory: new Promise<void>((resolve) => (release = resolve)) });
		const controller = new AbortController();
		const result = showAskForm(host.ui, SCOPE_AND_TARGETS, { signal: controller.signal });
		controller.abort();
		release();
		await expect(result).resolves.toMatchObject({ status: "aborted" });
		expect(host.done).toHaveBeenCalledTimes(1);
	});

	test("done is passed on once: a submit followed by an abort changes nothing", async () => {
		const host = tuiHost();
		const controller = new AbortController();
		const result = showAskForm(host.ui, SCOPE_AND_TARGETS, { signal: controller.signal });
		host.shown.component?.handleInput?.(KEY.escape);
		host.shown.component?.handleInput?.(KEY.escape);
		controller.abort();
		await expect(result).resolves.toMatchObject({ status: "dismissed" });
		expect(host.done).toHaveBeenCalledTimes(1);
	});

	test("a failure while building the form resolves status error instead of throwing", async () => {
		const broken = {
			getKeys: () => {
				throw new Error("no keys");
			},
			matches: () => false,
		} as unknown as KeybindingsManager;
		const host = tuiHost({ keybindings: broken });
		await expect(showAskForm(host.ui, SCOPE_AND_TARGETS)).resolves.toMatchObject({
			status: "error",
			error: expect.stringContaining("no keys"),
		});
	});

	test("reports progress and passes the asker to the title line", async () => {
		const host = tuiHost();
		const progress: AskProgress[] = [];
		const result = showAskForm(host.ui, SCOPE_AND_TARGETS, {
			asker: "planner › scout",
			onProgress: (p) => progress.push(p),
		});
		expect(host.shown.component?.render(80).join("\n")).toContain("Asked by planner › scout");
		host.shown.component?.handleInput?.(KEY.escape);
		host.shown.component?.handleInput?.(KEY.escape);
		await result;
		expect(progress.map((p) => p.phase)).toEqual(["opened", "dismissed"]);
	});

	test("the off-screen warm-up builds, renders and closes a form without error, and a real form after it works as before", async () => {
		setKeybindings(piKeybindings());
		await expect(warmUpForm()).resolves.toBeUndefined();
		const host = tuiHost();
		const result = showAskForm(host.ui, SCOPE_AND_TARGETS);
		expect(host.shown.component?.render(80).join("\n")).toContain("Which");
		host.shown.component?.handleInput?.(KEY.escape);
		host.shown.component?.handleInput?.(KEY.escape);
		await expect(result).resolves.toMatchObject({ status: "dismissed" });
	});
});
