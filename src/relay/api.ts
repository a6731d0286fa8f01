/**
 * The relay API, for any subagent runner: a tool that runs a task in a
 * child `pi --mode rpc` and wants the child's questions to reach the user.
 *
 *   const relay = createChildRelay({ ui: ctx.ui, asker: "scout", signal });
 *   const child = spawn("pi", ["--mode", "rpc", ...], { env: { ...process.env, ...relayEnvironment() } });
 *   // for every JSON line the child prints:
 *   const response = await relay.handle(message);
 *   if (response) child.stdin.write(`${JSON.stringify(response)}\n`);
 *   // when the child exits:
 *   relay.dispose();
 *
 * A relay request (the child's whole form) is asked through the process's
 * "ask_user" channel — the parent's inline form, queued behind any open one,
 * labelled with the asker — or, when the parent is itself a relayed RPC child,
 * passed one level further up. The child's ordinary dialogs are forwarded to
 * the parent's own dialogs, labelled with the asker.
 */

import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { decodeRelayCancel, decodeRelayRequest, encodeRelayReply, RELAY_TITLE } from "../codec.ts";
import { type AskStatus, RELAY_VERSION, type RelayReply } from "../types.ts";
import { joinAskers } from "./asker.ts";
import { RELAY_ENV } from "./child.ts";
import { ASK_CHANNEL, getChannel } from "./registry.ts";

/** What a child prints on stdout to ask its client for a dialog (pi's RPC protocol). */
export interface ExtensionUIRequest {
	type: "extension_ui_request";
	id: string;
	method: string;
	title?: string;
	message?: string;
	options?: string[];
	placeholder?: string;
	prefill?: string;
	timeout?: number;
	notifyType?: "info" | "warning" | "error";
}

/** What the client writes back to the child's stdin. */
export type ExtensionUIResponse =
	| { type: "extension_ui_response"; id: string; value: string }
	| { type: "extension_ui_response"; id: string; confirmed: boolean }
	| { type: "extension_ui_response"; id: string; cancelled: true };

export type ParentUI = Pick<ExtensionUIContext, "select" | "confirm" | "input" | "editor" | "notify">;

export interface ChildRelayOptions {
	/** Who the child is (agent name / task): its forms and dialogs are labelled with it. */
	asker: string;
	/** The parent session's UI, for the child's ordinary dialogs; without it they are cancelled. */
	ui?: ParentUI;
	/** The runner's own abort signal: aborting it closes the child's forms and dialogs at once. */
	signal?: AbortSignal;
}

export interface ChildRelay {
	/**
	 * Takes one message the child printed. Resolves with the response to write
	 * to the child's stdin, or undefined when there is nothing to write (not a
	 * dialog request, a fire-and-forget request, or the child is gone).
	 */
	handle(message: unknown): Promise<ExtensionUIResponse | undefined>;
	/** The child exited or was stopped: its open and queued forms close now ("aborted"). Safe to call twice. */
	dispose(): void;
}

/** The environment to spawn a child with, so its ask_user sends whole forms to this relay. */
export function relayEnvironment(): Record<string, string> {
	return { [RELAY_ENV]: "1" };
}

export function createChildRelay(options: ChildRelayOptions): ChildRelay {
	const child = new AbortController();
	const forms = new Map<string, AbortController>();
	const dispose = () => child.abort();
	options.signal?.addEventListener("abort", dispose, { once: true });
	if (options.signal?.aborted) dispose();

	const label = (title: string) => `${options.asker}: ${title}`;

	async function relayForm(id: string, payload: unknown): Promise<ExtensionUIResponse | undefined> {
		const decoded = decodeRelayRequest(payload);
		if (!decoded.ok) return value(id, replyWith("error", decoded.error));
		const request = decoded.request;
		const form = new AbortController();
		const cancel = () => form.abort();
		child.signal.addEventListener("abort", cancel, { once: true });
		if (request.rid) forms.set(request.rid, form);
		try {
			const channel = getChannel(ASK_CHANNEL);
			// No session with a UI in this process: a headless parent can't ask anyone.
			if (!channel) return value(id, replyWith("no_ui", undefined, request.rid));
			const reply = await channel({ ...request, asker: joinAskers(options.asker, request.asker) }, { signal: form.signal });
			return child.signal.aborted ? undefined : value(id, { ...reply, ...(request.rid ? { rid: request.rid } : {}) });
		} catch (error) {
			return value(id, replyWith("error", error instanceof Error ? error.message : String(error), request.rid));
		} finally {
			child.signal.removeEventListener("abort", cancel);
			if (request.rid) forms.delete(request.rid);
		}
	}

	async function forwardDialog(request: ExtensionUIRequest): Promise<ExtensionUIResponse> {
		const { id, title = "" } = request;
		const ui = options.ui;
		const opts = { signal: child.signal, ...(request.timeout ? { timeout: request.timeout } : {}) };
		if (!ui || child.signal.aborted) return { type: "extension_ui_response", id, cancelled: true };
		switch (request.method) {
			case "confirm":
				return { type: "extension_ui_response", id, confirmed: await ui.confirm(label(title), request.message ?? "", opts) };
			case "select":
				return orCancelled(id, await ui.select(label(title), request.options ?? [], opts));
			case "input":
				return orCancelled(id, await ui.input(label(title), request.placeholder, opts));
			default:
				return orCancelled(id, await ui.editor(label(title), request.prefill));
		}
	}

	return {
		async handle(message) {
			const request = asUIRequest(message);
			if (!request) return undefined;
			if (request.method === "editor" && request.title === RELAY_TITLE) {
				if (child.signal.aborted) return undefined;
				return relayForm(request.id, request.prefill);
			}
			if (request.method === "notify") {
				const rid = decodeRelayCancel(request.message);
				if (rid !== undefined) forms.get(rid)?.abort();
				else if (request.message) options.ui?.notify(label(request.message), request.notifyType);
				return undefined;
			}
			if (["select", "confirm", "input", "editor"].includes(request.method)) {
				if (child.signal.aborted) return undefined;
				return forwardDialog(request);
			}
			return undefined;
		},
		dispose() {
			options.signal?.removeEventListener("abort", dispose);
			dispose();
		},
	};
}

function asUIRequest(message: unknown): ExtensionUIRequest | undefined {
	if (typeof message !== "object" || message === null) return undefined;
	const candidate = message as Partial<ExtensionUIRequest>;
	if (candidate.type !== "extension_ui_request" || typeof candidate.id !== "string" || typeof candidate.method !== "string") {
		return undefined;
	}
	return candidate as ExtensionUIRequest;
}

function replyWith(status: AskStatus, error?: string, rid?: string): RelayReply {
	return {
		v: RELAY_VERSION,
		...(rid ? { rid } : {}),
		status,
		answers: {},
		skipped: [],
		notes: [],
		...(error ? { error } : {}),
	};
}

function value(id: string, reply: RelayReply): ExtensionUIResponse {
	return { type: "extension_ui_response", id, value: encodeRelayReply(reply) };
}

function orCancelled(id: string, answer: string | undefined): ExtensionUIResponse {
	return answer === undefined ? { type: "extension_ui_response", id, cancelled: true } : { type: "extension_ui_response", id, value: answer };
}
