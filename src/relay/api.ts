/**
 * The relay API (README, "The relay API") for a runner of `pi --mode rpc` children: a child's whole form is asked
 * through this process's session with a UI, its other dialogs through the parent's own, all labelled with the asker.
 */

import { type ExtensionUIContext, ExtensionEditorComponent } from "@mariozechner/pi-coding-agent";
import { type Static, Type } from "@sinclair/typebox";
import { collectedToReply, decodeRelayCancel, decodeRelayRequest, encodeRelayReply, RELAY_TITLE } from "./envelope.ts";
import { joinAskers } from "./asker.ts";
import { currentHandler, processRecord } from "../route/record.ts";
import { isObject, own } from "../core/json.ts";
import { schemaIssues } from "../core/schema.ts";
import { distinctRows, sanitizeLine, sanitizeText } from "../core/sanitize.ts";
import { errorText, RELAY_ENV, type RelayReply, emptyCollected } from "../core/types.ts";

/** What a child prints on stdout to ask its client for a dialog (pi's RPC protocol), checked by UIRequestSchema. */
export type ExtensionUIRequest = Static<typeof UIRequestSchema>;

/** What the client writes back to the child's stdin. */
export type ExtensionUIResponse = { type: "extension_ui_response"; id: string } & (
	| { value: string }
	| { confirmed: boolean }
	| { cancelled: true }
);

/**
 * With `custom` (pi's TUI), a forwarded editor can be closed when the child goes; pi's `editor()` can't be withdrawn.
 */
export type ParentUI = Pick<ExtensionUIContext, "select" | "confirm" | "input" | "editor" | "notify"> &
	Partial<Pick<ExtensionUIContext, "custom">>;

export interface ChildRelayOptions {
	/** Who the child is (agent name / task): its forms and dialogs are labelled with it. */
	asker: string;
	/** For the child's ordinary dialogs; without it they are cancelled. */
	ui?: ParentUI;
	/** The runner's abort signal: aborting it closes the child's forms and dialogs at once. */
	signal?: AbortSignal;
}

export interface ChildRelay {
	/**
	 * One message the child printed → the response for its stdin, or undefined (not a dialog, fire-and-forget, the child
	 * gone). Never rejects: a failure is `cancelled`.
	 */
	handle(message: unknown): Promise<ExtensionUIResponse | undefined>;
	/** The child exited or was stopped: its forms close and nothing more is written to it. Safe to call twice. */
	dispose(): void;
}

/** The environment to spawn a child with, so its ask_user sends whole forms to this relay. */
export const relayEnvironment = (): Record<string, string> => ({ [RELAY_ENV]: "1" });

const DIALOGS = new Set(["select", "confirm", "input", "editor"]);

/** One child's side of the relay; `handle` and `dispose` work unbound (a runner may pass them around). */
export function createChildRelay({ asker, ui, signal }: ChildRelayOptions): ChildRelay {
	const name = sanitizeLine(asker);
	const child: Child = {
		asker,
		ui,
		label: (title) => `${name}: ${sanitizeText(title)}`,
		forms: new Map(),
		closing: new AbortController(),
	};
	const close = () => child.closing.abort();
	signal?.addEventListener("abort", close, { once: true });
	if (signal?.aborted) close();
	// The child is gone; after a mere abort it may still be alive, waiting for its "aborted" replies.
	let disposed = false;
	return {
		async handle(message) {
			const request = disposed ? undefined : asUIRequest(message);
			if (!request) return undefined;
			let response: ExtensionUIResponse | undefined;
			try {
				if (!("malformed" in request)) response = await serve(child, request);
			} catch {
				// Nothing the child sends may take the parent down.
			}
			// A dialog waits for its answer, so none is left unanswered; other requests (notify, status, widgets) are
			// fire-and-forget.
			response ??= DIALOGS.has(request.method) ? answer(request.id, undefined) : undefined;
			return disposed ? undefined : response;
		},
		dispose() {
			disposed = true;
			signal?.removeEventListener("abort", close);
			close();
		},
	};
}

/**
 * One child: the runner's options (its `asker` joined with the child's own on its forms), and what the relay keeps of
 * it.
 */
interface Child extends ChildRelayOptions {
	/** A dialog's title, sanitised, behind the asker. */
	label(title: string): string;
	/** The open forms, by request id, for the child's cancel notices. */
	forms: Map<string, AbortController>;
	/** Aborted when the child's forms and dialogs must close: the runner aborted, or the child is gone. */
	closing: AbortController;
}

async function serve(child: Child, request: ExtensionUIRequest): Promise<ExtensionUIResponse | undefined> {
	const { ui, closing } = child;
	if (request.method === "editor" && request.title?.startsWith("\u0000"))
		return answer(request.id, encodeRelayReply(await relayForm(child, request.title, request.prefill)));
	if (request.method === "notify") {
		const rid = decodeRelayCancel(request.message);
		if (rid !== undefined) child.forms.get(rid)?.abort();
		// A NUL-led message is protocol, never text for the user.
		else if (request.message && !request.message.startsWith("\u0000"))
			ui?.notify(child.label(request.message), request.notifyType);
		return undefined;
	}
	if (!DIALOGS.has(request.method)) return undefined;
	// The child's own dialogs, on the parent's UI: labelled, sanitised, and in turn with every form.
	const cancelled = answer(request.id, undefined);
	if (!ui || closing.signal.aborted) return cancelled;
	return processRecord().queue.run(
		() => showForwarded(ui, request, child.label(request.title ?? ""), closing.signal),
		closing.signal,
		() => cancelled,
	);
}

/** A whole form (a NUL-led title of another protocol version is an error), labelled `outer › inner`. */
async function relayForm(child: Child, title: string, payload: unknown): Promise<RelayReply> {
	const unknown =
		`unknown relay protocol ${JSON.stringify(title.slice(1))}: this parent speaks ` +
		`${RELAY_TITLE.slice(1)}; use the same pi-ask-user version in parent and child`;
	const decoded = title === RELAY_TITLE ? decodeRelayRequest(payload) : { ok: false as const, error: unknown };
	if (!decoded.ok) return collectedToReply(emptyCollected("error", decoded.error));
	const { request } = decoded;
	const { rid } = request;
	if (child.closing.signal.aborted) return collectedToReply(emptyCollected("aborted"), rid);
	const form = new AbortController();
	if (rid) child.forms.set(rid, form);
	try {
		const handler = currentHandler();
		// No session with a UI in this process: a headless parent can't ask anyone.
		if (!handler) return collectedToReply(emptyCollected("no_ui"), rid);
		const answered = await handler(
			{ ...request, asker: joinAskers(child.asker, request.asker) },
			// The child's RPC reads its stdin with no cap on a line: the files' bytes go with the reply.
			{ signal: AbortSignal.any([child.closing.signal, form.signal]), carriesFiles: true },
		);
		return { ...answered, ...(rid && { rid }) };
	} catch (error) {
		return collectedToReply(emptyCollected("error", errorText(error)), rid);
	} finally {
		if (rid) child.forms.delete(rid);
	}
}

async function showForwarded(
	ui: ParentUI,
	request: ExtensionUIRequest,
	title: string,
	signal: AbortSignal,
): Promise<ExtensionUIResponse> {
	const { id } = request;
	const opts = { signal, ...(request.timeout ? { timeout: request.timeout } : {}) };
	switch (request.method) {
		case "confirm":
			return {
				type: "extension_ui_response",
				id,
				confirmed: await ui.confirm(title, sanitizeText(request.message ?? ""), opts),
			};
		case "select": {
			// Shown sanitised, answered with the child's own string, by position.
			const choices = request.options ?? [];
			const shown = distinctRows(choices);
			const picked = await ui.select(title, shown, opts);
			return answer(id, picked === undefined ? undefined : choices[shown.indexOf(picked)]);
		}
		case "input":
			return answer(id, await ui.input(title, sanitizeLine(request.placeholder ?? ""), opts));
		default:
			return answer(id, await closableEditor(ui, title, sanitizeText(request.prefill ?? ""), signal));
	}
}

/**
 * pi's `editor()` takes no signal: its component through `custom()`, cancelled on abort; where custom() shows nothing
 * (RPC), `editor()`.
 */
async function closableEditor(
	ui: ParentUI,
	title: string,
	prefill: string,
	signal: AbortSignal,
): Promise<string | undefined> {
	if (!ui.custom) return ui.editor(title, prefill);
	let shown = false;
	const text = await ui.custom<string | undefined>((tui, _theme, keybindings, done) => {
		shown = true;
		let settled = false;
		const finish = (result: string | undefined) => {
			if (settled) return;
			settled = true;
			signal.removeEventListener("abort", cancel);
			done(result);
		};
		const cancel = () => finish(undefined);
		signal.addEventListener("abort", cancel, { once: true });
		const editor = new ExtensionEditorComponent(tui, keybindings, title, prefill, finish, cancel);
		if (signal.aborted) cancel();
		return editor;
	});
	return shown ? text : ui.editor(title, prefill);
}

const text = Type.Optional(Type.String());
/** A child's UI request as this module reads it: checked before anything in it is shown. */
const UIRequestSchema = Type.Object({
	type: Type.Literal("extension_ui_request"),
	id: Type.String(),
	method: Type.String(),
	title: text,
	message: text,
	options: Type.Optional(Type.Array(Type.String())),
	placeholder: text,
	prefill: text,
	timeout: Type.Optional(Type.Number()),
	// pi's notify types; any text passes, and pi's notify is given it as it is.
	notifyType: Type.Optional(Type.Unsafe<"info" | "warning" | "error">(Type.String())),
});

/**
 * Undefined for other RPC output (or no id and method to answer); `malformed`, a request that can't be shown but can be
 * answered.
 */
function asUIRequest(
	message: unknown,
): ExtensionUIRequest | { malformed: true; id: string; method: string } | undefined {
	if (!isObject(message) || own(message, "type") !== "extension_ui_request") return undefined;
	// Checked on a copy: the check leaves undefined what it finds unsound, and the message is the runner's.
	const issues = schemaIssues(UIRequestSchema, structuredClone(message));
	if (issues.some(({ path }) => path === "id" || path === "method")) return undefined;
	if (issues.length === 0) return message as unknown as ExtensionUIRequest;
	return { malformed: true, id: message["id"] as string, method: message["method"] as string };
}

/** Undefined: cancelled. */
function answer(id: string, text: string | undefined): ExtensionUIResponse {
	return text === undefined
		? { type: "extension_ui_response", id, cancelled: true }
		: { type: "extension_ui_response", id, value: text };
}
