/**
 * A test client for `pi --mode rpc`: JSON lines split on "\n" only (rpc.md:
 * readline would also split on U+2028/U+2029 inside strings), every event
 * kept, and each `extension_ui_request` dialog answered by a pluggable handler
 * that sees every request first. `close()` always ends the child.
 */

import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { type PiEnv, WAIT_MS } from "./pi-env.ts";

/** Any line pi writes: a response, an event or a UI request. */
export interface RpcMessage {
	type: string;
	[key: string]: unknown;
}

/** The dialogs of rpc.md's extension UI protocol (the ones awaiting an answer). */
export type DialogRequest =
	| { type: "extension_ui_request"; id: string; method: "select"; title: string; options: string[]; timeout?: number }
	| { type: "extension_ui_request"; id: string; method: "confirm"; title: string; message: string; timeout?: number }
	| { type: "extension_ui_request"; id: string; method: "input"; title: string; placeholder?: string; timeout?: number }
	| { type: "extension_ui_request"; id: string; method: "editor"; title: string; prefill?: string };

/** What a handler answers: a value (select/input/editor), a confirmation, or a cancel. */
export type DialogAnswer = { value: string } | { confirmed: boolean } | { cancelled: true };

export type DialogHandler = (request: DialogRequest) => DialogAnswer | Promise<DialogAnswer>;

const DIALOG_METHODS = new Set(["select", "confirm", "input", "editor"]);

export class RpcPi {
	/** Every line pi wrote, in order. */
	readonly messages: RpcMessage[] = [];
	/** Every dialog request, in order, answered or not. */
	readonly dialogs: DialogRequest[] = [];
	private stderr = "";
	private readonly listeners = new Set<() => void>();
	private exited = false;
	private nextId = 1;

	private constructor(
		private readonly child: ChildProcessWithoutNullStreams,
		private readonly handler: DialogHandler,
	) {
		const decoder = new StringDecoder("utf8");
		let buffer = "";
		child.stdout.on("data", (chunk: Buffer) => {
			buffer += decoder.write(chunk);
			for (let newline = buffer.indexOf("\n"); newline !== -1; newline = buffer.indexOf("\n")) {
				const line = buffer.slice(0, newline).replace(/\r$/, "");
				buffer = buffer.slice(newline + 1);
				if (line !== "") this.receive(line);
			}
		});
		child.stderr.on("data", (chunk: Buffer) => {
			this.stderr += chunk.toString("utf8");
		});
		// A write racing pi's exit must not crash the test run; the exit itself is reported.
		child.stdin.on("error", () => {});
		child.on("exit", () => {
			this.exited = true;
			this.notify();
		});
	}

	/** Starts `pi --mode rpc` for `piEnv`. Dialogs go to `handler` (default: cancel every one). */
	static start(piEnv: PiEnv, handler: DialogHandler = () => ({ cancelled: true })): RpcPi {
		const [pi = "pi", ...args] = piEnv.command;
		const child = spawn(pi, [...args, "--mode", "rpc"], {
			cwd: piEnv.cwd,
			env: piEnv.env,
			stdio: ["pipe", "pipe", "pipe"],
		});
		return new RpcPi(child, handler);
	}

	/** Writes one command line. */
	send(command: Record<string, unknown>): void {
		if (this.exited || this.child.stdin.writableEnded) return;
		this.child.stdin.write(`${JSON.stringify(command)}\n`);
	}

	/** Sends a command with an id and waits for its response. */
	async request(command: Record<string, unknown>, timeoutMs = WAIT_MS): Promise<RpcMessage> {
		const id = `req-${this.nextId++}`;
		this.send({ ...command, id });
		const response = await this.waitFor((m) => m.type === "response" && m["id"] === id, timeoutMs);
		if (response["success"] !== true) {
			throw new Error(`pi refused ${JSON.stringify(command)}: ${String(response["error"])}`);
		}
		return response;
	}

	/** Sends a prompt and waits until the agent run it started has ended. */
	async prompt(message: string, timeoutMs = 2 * WAIT_MS): Promise<RpcMessage> {
		const from = this.messages.length;
		await this.request({ type: "prompt", message }, timeoutMs);
		return this.waitFor((m) => m.type === "agent_end", timeoutMs, from);
	}

	/**
	 * Waits for the first line (from index `from`, default 0) that matches.
	 * Fails after `timeoutMs`, or when pi exits, naming what it saw.
	 */
	waitFor(predicate: (message: RpcMessage) => boolean, timeoutMs = WAIT_MS, from = 0): Promise<RpcMessage> {
		return new Promise((resolve, reject) => {
			let cursor = from;
			const check = (): boolean => {
				for (; cursor < this.messages.length; cursor++) {
					const message = this.messages[cursor];
					if (message !== undefined && predicate(message)) {
						finish();
						resolve(message);
						return true;
					}
				}
				if (this.exited) {
					finish();
					reject(new Error(`pi exited before the awaited message arrived.\n${this.diagnostics()}`));
					return true;
				}
				return false;
			};
			const timer = setTimeout(() => {
				finish();
				reject(new Error(`Timed out after ${timeoutMs} ms waiting for an RPC message.\n${this.diagnostics()}`));
			}, timeoutMs);
			const listener = (): void => {
				check();
			};
			const finish = (): void => {
				clearTimeout(timer);
				this.listeners.delete(listener);
			};
			if (!check()) this.listeners.add(listener);
		});
	}

	/** The tool_execution_end events so far, optionally of one tool. */
	toolEnds(toolName?: string): RpcMessage[] {
		return this.messages.filter(
			(m) => m.type === "tool_execution_end" && (toolName === undefined || m["toolName"] === toolName),
		);
	}

	/** Ends pi: closes stdin, then SIGTERM, then SIGKILL. Idempotent. */
	async close(): Promise<void> {
		if (this.exited) return;
		const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
		this.child.stdin.end();
		this.child.kill("SIGTERM");
		const timer = setTimeout(() => this.child.kill("SIGKILL"), 2_000);
		await exited;
		clearTimeout(timer);
	}

	private receive(line: string): void {
		let message: RpcMessage;
		try {
			message = JSON.parse(line) as RpcMessage;
		} catch {
			message = { type: "unparsed", line };
		}
		this.messages.push(message);
		if (message.type === "extension_ui_request" && DIALOG_METHODS.has(String(message["method"]))) {
			void this.answer(message as unknown as DialogRequest);
		}
		this.notify();
	}

	private async answer(request: DialogRequest): Promise<void> {
		this.dialogs.push(request);
		let answer: DialogAnswer;
		try {
			answer = await this.handler(request);
		} catch (error) {
			// A handler that throws is a broken test script: cancel, and keep the reason visible.
			this.messages.push({ type: "handler_error", error: error instanceof Error ? error.message : String(error) });
			answer = { cancelled: true };
		}
		this.send({ type: "extension_ui_response", id: request.id, ...answer });
	}

	private notify(): void {
		for (const listener of [...this.listeners]) listener();
	}

	private diagnostics(): string {
		const tail = this.messages
			.slice(-12)
			.map((m) => (m.type === "message_update" ? "message_update" : JSON.stringify(m).slice(0, 300)));
		return `Last messages:\n${tail.join("\n")}\nstderr:\n${this.stderr.slice(-2000)}`;
	}
}

/** One scripted answer: fixed, or computed from the request (a promise answers later, like a slow user). */
export type ScriptedAnswer = DialogAnswer | DialogHandler;

/**
 * A handler that answers dialogs in order from a list. More dialogs than
 * entries is a test error: it cancels the dialog and records the surprise in
 * `unexpected`, so a test can assert there was none.
 */
export function answerInOrder(...answers: ScriptedAnswer[]): DialogHandler & { unexpected: DialogRequest[] } {
	let next = 0;
	const unexpected: DialogRequest[] = [];
	const handler = (request: DialogRequest): DialogAnswer | Promise<DialogAnswer> => {
		const answer = answers[next++];
		if (answer === undefined) {
			unexpected.push(request);
			return { cancelled: true };
		}
		return typeof answer === "function" ? answer(request) : answer;
	};
	return Object.assign(handler, { unexpected });
}

/** Picks the select option that is `text`, else the first that contains it (a fixed row carries a mark, a free-text row what was written). */
export function choose(text: string): (request: DialogRequest) => DialogAnswer {
	return (request) => {
		if (request.method !== "select")
			throw new Error(`Expected a select dialog for ${JSON.stringify(text)}, got ${request.method}: ${request.title}`);
		const option = request.options.find((o) => o === text) ?? request.options.find((o) => o.includes(text));
		if (option === undefined) {
			throw new Error(
				`No option like ${JSON.stringify(text)} in ${JSON.stringify(request.title)}: ${JSON.stringify(request.options)}`,
			);
		}
		return { value: option };
	};
}
