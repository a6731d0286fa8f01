/**
 * The inline form's entry point: an aborted signal shows nothing, an abort
 * closes the form at once (even before pi calls the factory), and `done` is
 * passed on at most once.
 */

import type { ExtensionUIContext, Theme } from "@mariozechner/pi-coding-agent";
import { type Component, getKeybindings, type TUI } from "@mariozechner/pi-tui";
import { type AskForm, type Collected, errorText, emptyCollected, hasPreview } from "../core/types.ts";
import { ENGLISH, type Texts } from "../i18n/texts.ts";
import { AskFormComponent, type FormOptions } from "./component.ts";
import { formThemeFrom } from "./theme.ts";

/**
 * Shows the form inline (ctx.ui.custom, no overlay); undefined when the host did not show it (RPC: custom() never calls
 * the factory).
 */
export async function showAskForm(
	ui: Pick<ExtensionUIContext, "custom">,
	form: AskForm,
	options: FormOptions = {},
): Promise<Collected | undefined> {
	const { signal } = options;
	if (signal?.aborted) return emptyCollected("aborted");
	// Which previews read as markdown, the form finds out as it shows each. pi's markdown styles (none when its theme
	// is not set up) are imported for the first form with previews: pi's module slows start-up.
	const markdownTheme = form.questions.some(hasPreview)
		? await import("@mariozechner/pi-coding-agent").then((pi) => pi.getMarkdownTheme()).catch(() => undefined)
		: undefined;
	if (signal?.aborted) return emptyCollected("aborted");

	let component: AskFormComponent | undefined;
	// Before pi calls the factory there is no component yet: the factory sees the aborted signal instead.
	const onAbort = () => component?.abort();
	signal?.addEventListener("abort", onAbort, { once: true });
	// A form pi drops (disposed, never closed) ends the ask here: pi leaves its own promise pending.
	let drop = (_collected: Collected) => {};
	const dropped = new Promise<Collected>((resolve) => (drop = resolve));
	try {
		const shown = ui.custom<Collected | undefined>(
			(tui, theme, keybindings, done) => {
				try {
					component = new AskFormComponent({
						...options,
						tui,
						theme: formThemeFrom(theme),
						keybindings,
						form,
						onDone: (collected, lost) => (lost ? drop : done)(collected),
						markdownTheme,
					});
				} catch (error) {
					done(emptyCollected("error", `The form could not be shown: ${errorText(error)}`));
					return { render: () => [], invalidate: () => {} };
				}
				if (signal?.aborted) component.abort();
				return component;
			},
			{ blocked: blockedOn(form, options.texts) },
		);
		return await Promise.race([shown, dropped]);
	} finally {
		signal?.removeEventListener("abort", onAbort);
	}
}

/** pi 1.x reports the session blocked on a question while the form waits: no model output in it, as in pi's own. */
export function blockedOn(form: AskForm, texts: Texts = ENGLISH): { kind: "question"; message: string } {
	return { kind: "question", message: `ask_user · ${texts.t("form.questionCount", { count: form.questions.length })}` };
}

/** A small form rendered off screen and closed, by the background preload: the first real form finds warm code. */
export async function warmUpForm(texts?: Texts): Promise<void> {
	// The user's words, with their plural rules and list format: ICU loads its data on first use.
	texts?.t("review.missing", { names: ["A", "B"] });
	texts?.t("form.questionCount", { count: 2 });
	// Text like a real call's: lines longer than the pane, CJK, emoji, a preview that scrolls, two questions.
	const line = 'const 世界 = migrate("👩‍💻 café", { step: 1, dry: true }); // longer than the pane, so it wraps';
	const option = (label: string, preview?: string) => ({
		label,
		value: label,
		description: `${label}: ${line}`,
		recommended: false,
		...(preview && { preview }),
	});
	const preview = Array.from({ length: 50 }, () => line).join("\n");
	const sample: AskForm = {
		questions: [
			{
				id: "warm",
				header: "Warm",
				question: `${line}?`,
				context: line,
				options: [option("A", preview), option("B", preview)],
				multiSelect: false,
				allowOther: true,
				required: true,
			},
			{
				id: "more",
				header: "More 🚀",
				question: "More?",
				options: [option("C"), option("D")],
				multiSelect: true,
				allowOther: true,
				required: false,
			},
		],
	};
	const offScreen = { requestRender: () => {}, terminal: { rows: 40, columns: 100 } } as unknown as TUI;
	const noColours = {
		fg: (_color: string, s: string) => s,
		bg: (_color: string, s: string) => s,
		bold: (s: string) => s,
	} as unknown as Theme;
	const controller = new AbortController();
	const ui: Pick<ExtensionUIContext, "custom"> = {
		custom: <T>(factory: Parameters<ExtensionUIContext["custom"]>[0]) =>
			new Promise<T>((resolve) => {
				// pi's KeybindingsManager is pi-tui's with its config file on top; the form reads only pi-tui's part.
				const keybindings = getKeybindings() as unknown as Parameters<typeof factory>[2];
				const component = factory(offScreen, noColours, keybindings, (value: unknown) =>
					resolve(value as T),
				) as Component;
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
