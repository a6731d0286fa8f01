/**
 * The inline form's entry point: what the tool calls.
 *
 * Shows the form with ctx.ui.custom (inline, no overlay) and resolves with
 * what was collected. Guards kept here:
 * - an already-aborted signal resolves "aborted" without showing anything;
 * - the abort signal closes the form at once (also when it fires before
 *   pi has called the factory), and its listener is always removed;
 * - `done` is passed on at most once, whatever calls it first (submit,
 *   dismiss, abort, an error while building or rendering the form).
 */

import type { ExtensionUIContext, Theme } from "@mariozechner/pi-coding-agent";
import { type Component, getKeybindings, type MarkdownTheme, type TUI } from "@mariozechner/pi-tui";
import { errorText } from "../abort.ts";
import { emptyCollected } from "../codec.ts";
import type { AskForm, Collected, ProgressListener } from "../types.ts";
import type { NumberKeys } from "../machine/model.ts";
import { ENGLISH, type Texts } from "../i18n/texts.ts";
import { AskFormComponent } from "./component.ts";
import type { KeySlots } from "./key-table.ts";
import { looksLikeMarkdown } from "./text-fit.ts";
import { formThemeFrom } from "./theme.ts";

export interface FormOptions {
	/** Abort closes the form at once → status "aborted", partial answers kept. */
	signal?: AbortSignal;
	/** Shown as a title line, e.g. "Asked by planner › scout" (relayed forms). */
	asker?: string;
	onProgress?: ProgressListener;
	/** The user pressed pi's interrupt/clear key (ctrl+c by default): the tool aborts the run. */
	onInterrupt?: () => void;
	/** When the time to answer runs out (epoch ms): shown as a countdown. */
	deadline?: number;
	/** What a number key does (the numberKeys setting); default: choose. */
	numberKeys?: NumberKeys;
	/** The user's language; default English. */
	texts?: Texts;
	/** The keys the user chose (the peekKey setting). */
	keySlots?: KeySlots;
}

/**
 * Shows the form inline (ctx.ui.custom, no overlay). Resolves undefined when
 * the host did not show it (RPC mode: custom() resolves undefined without
 * ever calling the factory).
 */
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
				component = new AskFormComponent({
					tui,
					theme: formThemeFrom(theme),
					keybindings,
					form,
					asker: options.asker,
					onDone: finish,
					onProgress: options.onProgress,
					onInterrupt: options.onInterrupt,
					deadline: options.deadline,
					numberKeys: options.numberKeys,
					markdownTheme,
					texts: options.texts,
					keySlots: options.keySlots,
				});
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
 * (program status, OSC 7501, for terminals and agent dashboards), not as
 * working; 0.73 ignores the option. pi's reports never carry model output,
 * so neither does this message: the tool's name and how many questions, in
 * the user's language.
 */
export function blockedOn(form: AskForm, texts: Texts = ENGLISH): { kind: "question"; message: string } {
	return { kind: "question", message: `ask_user · ${texts.t("form.questionCount", { count: form.questions.length })}` };
}

/**
 * Builds and renders a small form once, off screen, and closes it: the first
 * real form then finds warm code — the modules compiled, V8's first runs done,
 * and ICU's grapheme segmenter (pi-tui's width math) initialised, which alone
 * costs more than a keystroke's budget many times over. Called by the
 * background preload; never shows anything.
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
