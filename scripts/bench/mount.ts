/**
 * Puts a tool's form on a fake screen the way pi does: load the extension
 * module, hand it a fake ExtensionAPI that captures registerTool, call the
 * tool's execute with a fake ctx whose ui.custom runs the component factory
 * with the given TUI, theme and keybindings — and hand back the component.
 *
 * The same path for ours (index.ts), pi's questionnaire example and a peer
 * (--peer), so all are measured from the same starting line: what the
 * user's keys reach.
 */

import { createEventBus, type ExtensionAPI, type Theme, type ToolDefinition } from "@mariozechner/pi-coding-agent";
import type { Component, KeybindingsManager, TUI } from "@mariozechner/pi-tui";

/** An extension's default export: pi awaits what it returns (ours loads its build or its source first). */
export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;
export type EventHandler = (event: unknown, ctx: unknown) => unknown;

/**
 * A pi that only records the tools registered (and hands `on` its event
 * handlers) and ignores everything else, but for its event bus, which is pi's own: a tool that emits events (ours
 * does, on every answer) pays what it pays in pi, not an exception for a
 * missing emit.
 */
export async function captureTools(
	factory: ExtensionFactory,
	on: (event: string, handler: EventHandler) => void = () => {},
): Promise<Map<string, ToolDefinition>> {
	const tools = new Map<string, ToolDefinition>();
	const handlers: Record<string | symbol, unknown> = {
		on,
		registerTool: (tool: ToolDefinition) => void tools.set(tool.name, tool),
		getActiveTools: () => [...tools.keys()],
		getAllTools: () => [...tools.values()],
		getFlag: () => undefined,
		events: createEventBus(),
	};
	const pi = new Proxy(handlers, {
		get: (target, key) => (key in target ? target[key] : () => undefined),
	}) as unknown as ExtensionAPI;
	await factory(pi);
	return tools;
}

export interface Screen {
	tui: TUI;
	theme: Theme;
	keybindings: KeybindingsManager;
}

export interface Mounted {
	component: Component;
	/** Microseconds from calling prepareArguments (pi calls it first) through execute to the component being built. */
	openUs: number;
	/** The part of openUs spent in prepareArguments (0 for a tool without one). */
	prepareUs: number;
	/** True once the tool's form called done(). */
	closed(): boolean;
	/** Aborts the call and, when the form closed on it, waits for execute to return (the next form in pi's queue may open). */
	close(): Promise<void>;
}

const OPEN_TIMEOUT_MS = 5_000;

/**
 * Runs `tool.execute` with a UI whose custom() builds the component on
 * `screen`, and resolves once it is built. ask_user queues its forms
 * process-wide, so a form left open keeps the next one waiting: close() each.
 */
export function mountTool(tool: ToolDefinition, rawArgs: unknown, screen: Screen): Promise<Mounted> {
	return new Promise((resolve, reject) => {
		let closed = false;
		const abort = new AbortController();
		let result: Promise<unknown> = Promise.resolve();
		const timer = setTimeout(
			() => reject(new Error(`${tool.name}: no form opened within ${OPEN_TIMEOUT_MS} ms`)),
			OPEN_TIMEOUT_MS,
		);
		let started = 0n;
		let prepared = 0n;
		// custom() as pi's; every other UI call (a peer's setWorkingVisible, notify…) does nothing.
		const calls = {
			custom: (
				factory: (tui: TUI, theme: Theme, kb: KeybindingsManager, done: (value: unknown) => void) => Component,
			) =>
				new Promise((settle) => {
					const component = factory(screen.tui, screen.theme, screen.keybindings, (value) => {
						closed = true;
						settle(value);
					});
					const openUs = Number(process.hrtime.bigint() - started) / 1000;
					clearTimeout(timer);
					resolve({
						component,
						openUs,
						prepareUs: Number(prepared - started) / 1000,
						closed: () => closed,
						close: async () => {
							abort.abort();
							// A tool that ignores the signal (the questionnaire) stays open; only wait for one that closed.
							if (closed) await result;
						},
					});
				}),
		};
		const ui = new Proxy(calls, {
			get: (target, key) => (key in target ? target[key as keyof typeof target] : () => undefined),
		});
		// pi 1.x says its mode; its questionnaire example asks only in the TUI.
		const ctx = { mode: "tui", hasUI: true, ui, abort: () => {}, cwd: process.cwd() };
		started = process.hrtime.bigint();
		const args = tool.prepareArguments ? tool.prepareArguments(rawArgs) : rawArgs;
		prepared = process.hrtime.bigint();
		const execute = tool.execute as (...args: unknown[]) => Promise<unknown>;
		result = execute("bench-call", args, abort.signal, () => {}, ctx).catch(() => undefined);
	});
}
