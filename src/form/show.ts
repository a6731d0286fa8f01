/**
 * The inline form's entry point. Guards kept here:
 * - an already-aborted signal resolves "aborted" without showing anything;
 * - the abort signal closes the form at once (also when it fires before pi
 *   has called the factory), and its listener is always removed;
 * - `done` is passed on at most once, whatever calls it first.
 */

import type { ExtensionUIContext, Theme } from "@mariozechner/pi-coding-agent";
import { type Component, getKeybindings, type MarkdownTheme, type TUI } from "@mariozechner/pi-tui";
import { emptyCollected } from "../result.ts";
import { type AskForm, type Collected, errorText } from "../types.ts";
import { ENGLISH, type Texts } from "../i18n/texts.ts";
import { AskFormComponent, type FormOptions } from "./component.ts";
import { looksLikeMarkdown } from "./text-fit.ts";
import { formThemeFrom } from "./theme.ts";

export type { FormOptions } from "./component.ts";

/** Shows the form inline (ctx.ui.custom, no overlay); undefined when the host did not show it (RPC: custom() never calls the factory). */
export async function showAskForm(
	ui: Pick<ExtensionUIContext, "custom">,
	form: AskForm,
	options: FormOptions = {},
): Promise<Collected | undefined> {
	const { signal } = options;
	if (signal?.aborted) return emptyCollected("aborted");
	const markdownTheme = hasMarkdownPreview(form) ? await piMarkdownTheme() : undefined;
	if (signal?.aborted) return emptyCollected("aborted");

	let component: AskFormComponent | undefined;
	let abortedEarly = false;
	const onAbort = () => {
		if (component) component.abort();
		else abortedEarly = true;
	};
	signal?.addEventListener("abort", onAbort, { once: true });
	try {
		return await ui.custom<Collected | undefined>((tui, theme, keybindings, done) => {
			let settled = false;
			const finish = (collected: Collected) => {
				if (settled) return;
				settled = true;
				signal?.removeEventListener("abort", onAbort);
				done(collected);
			};
			try {
				component = new AskFormComponent({ ...options, tui, theme: formThemeFrom(theme), keybindings, form, onDone: finish, markdownTheme });
			} catch (error) {
				finish(emptyCollected("error", `The form could not be shown: ${errorText(error)}`));
				return emptyComponent;
			}
			if (abortedEarly || signal?.aborted) component.abort();
			return component;
		}, { blocked: blockedOn(form, options.texts) });
	} finally {
		signal?.removeEventListener("abort", onAbort);
	}
}

const emptyComponent: Component = { render: () => [], invalidate: () => {} };

/**
 * pi 1.x reports the session as blocked on a question while the form waits
 * (0.73 ignores the option). pi's reports never carry model output, so
 * neither does this message: the tool's name and how many questions.
 */
export function blockedOn(form: AskForm, texts: Texts = ENGLISH): { kind: "question"; message: string } {
	return { kind: "question", message: `ask_user · ${texts.t("form.questionCount", { count: form.questions.length })}` };
}

/**
 * Builds and renders a small form off screen, and closes it (the background
 * preload calls it): the first real form then finds warm code — the modules
 * compiled, V8's first runs done, ICU's grapheme segmenter initialised.
 */
export async function warmUpForm(texts?: Texts): Promise<void> {
	// The user's words, with their plural rules and list format: ICU loads its data on first use.
	texts?.t("review.missing", { names: ["A", "B"] });
	texts?.t("form.questionCount", { count: 2 });
	// Text like a real call's: lines longer than the pane, CJK, emoji, a preview that scrolls, two questions.
	const line = 'const 世界 = migrate("👩‍💻 café", { step: 1, dry: true }); // longer than the pane, so it wraps';
	const option = (label: string, preview?: string) => ({ label, value: label, description: `${label}: ${line}`, recommended: false, ...(preview && { preview }) });
	const preview = Array.from({ length: 50 }, () => line).join("\n");
	const sample: AskForm = {
		questions: [
			{ id: "warm", header: "Warm", question: `${line}?`, context: line, options: [option("A", preview), option("B", preview)], multiSelect: false, allowOther: true, required: true },
			{ id: "more", header: "More 🚀", question: "More?", options: [option("C"), option("D")], multiSelect: true, allowOther: true, required: false },
		],
	};
	const offScreen = { requestRender: () => {}, terminal: { rows: 40, columns: 100 } } as unknown as TUI;
	const noColours = { fg: (_color: string, s: string) => s, bg: (_color: string, s: string) => s, bold: (s: string) => s } as unknown as Theme;
	const controller = new AbortController();
	const ui: Pick<ExtensionUIContext, "custom"> = {
		custom: <T>(factory: Parameters<ExtensionUIContext["custom"]>[0]) =>
			new Promise<T>((resolve) => {
				// pi's KeybindingsManager is pi-tui's with its config file on top; the form reads only pi-tui's part.
				const keybindings = getKeybindings() as unknown as Parameters<typeof factory>[2];
				const component = factory(offScreen, noColours, keybindings, (value: unknown) => resolve(value as T)) as Component;
				for (const width of [120, 60]) {
					component.render(width);
					for (const key of ["\x1b[B", "\t", "\t", "\t"]) {
						component.handleInput?.(key);
						component.render(width);
					}
				}
				controller.abort();
			}),
	};
	await showAskForm(ui, sample, { signal: controller.signal, ...(texts && { texts }) });
}

function hasMarkdownPreview(form: AskForm): boolean {
	return form.questions.some((question) => question.options.some((option) => option.preview !== undefined && looksLikeMarkdown(option.preview)));
}

/**
 * pi's markdown styles (its messages' headings, lists, code highlighting);
 * none when pi's theme is not set up, and previews stay plain. Imported only
 * for a form that needs it: importing pi's package during the background
 * preload slows pi's start-up measurably.
 */
async function piMarkdownTheme(): Promise<MarkdownTheme | undefined> {
	try {
		const pi = await import("@mariozechner/pi-coding-agent");
		return pi.getMarkdownTheme();
	} catch {
		return undefined;
	}
}
