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

import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import type { Component } from "@mariozechner/pi-tui";
import { errorText } from "../abort.ts";
import { emptyCollected } from "../codec.ts";
import type { AskForm, Collected, ProgressListener } from "../types.ts";
import { AskFormComponent } from "./component.ts";
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
				});
			} catch (error) {
				finish(emptyCollected("error", `The form could not be shown: ${errorText(error)}`));
				return emptyComponent;
			}
			if (abortedEarly || signal?.aborted) component.abort();
			return component;
		});
	} finally {
		signal?.removeEventListener("abort", onAbort);
	}
}

const emptyComponent: Component = { render: () => [], invalidate: () => {} };
