/**
 * The time from a tool call's execute to the form's first frame, in a fresh
 * process: "cold" asks at once after the extension loaded (the UI modules
 * load on that first ask), "warm" first starts a session with a UI and waits
 * for the background preload, as a user's first question after start-up
 * would. Each run is its own process (`npm run bench` spawns them), so
 * nothing loaded by another measurement helps. Two forms: the largest legal
 * one, and a typical call (the demo's). After a warm first ask of the largest
 * form, the first visits: each key onto a row or question not shown before,
 * at a reader's pace (VISIT_GAP_MS apart), timed as a keystroke is.
 */

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { initTheme, type ExtensionAPI, type ToolDefinition } from "@mariozechner/pi-coding-agent";
import { setKeybindings } from "@mariozechner/pi-tui";
import { quietTui } from "../../test/form/fake-terminal.ts";
import { piKeybindings } from "../../test/form/support.ts";
import { demoAskParams, largestAskParams } from "./forms.ts";
import type { ExtensionFactory } from "./mount.ts";
import { mountTool } from "./mount.ts";

/** A reader's pause between keys: long enough to read a row. */
export const VISIT_GAP_MS = 400;
/** Down through the first question's options, to the next question and down its options. */
const VISITS = ["\x1b[B", "\x1b[B", "\x1b[B", "\x1b[B", "\t", "\x1b[B", "\x1b[B", "\x1b[B", "\t", "\x1b[B"];
/** Starts the line that carries the first visits' times, before the first ask's. */
const VISITS_PREFIX = "visits:";

type Jiti = { import(id: string, options?: { default?: boolean }): Promise<unknown> };
type Handler = (event: unknown, ctx: unknown) => unknown;

export type FirstAskForm = "largest" | "typical";

/** Runs in the child process: prints the milliseconds, alone on its line. */
export async function firstAskOnce(
	repo: string,
	extension: string,
	jiti: Jiti,
	warm: boolean,
	form: FirstAskForm,
): Promise<void> {
	initTheme("dark");
	const keybindings = piKeybindings();
	setKeybindings(keybindings);
	const factory = (await jiti.import(extension, { default: true })) as ExtensionFactory;
	const handlers = new Map<string, Handler[]>();
	let tool: ToolDefinition | undefined;
	const known: Record<string | symbol, unknown> = {
		on: (name: string, handler: Handler) => void handlers.set(name, [...(handlers.get(name) ?? []), handler]),
		registerTool: (definition: ToolDefinition) => {
			tool = definition;
		},
		getActiveTools: () => ["ask_user"],
		events: { emit: () => {}, on: () => () => {} },
	};
	// Whatever else the extension calls at load (flags, commands, …) does nothing here, as in mount.ts.
	const pi = new Proxy(known, {
		get: (target, key) => (key in target ? target[key] : () => undefined),
	}) as unknown as ExtensionAPI;
	await factory(pi);
	if (!tool) throw new Error("index.ts registered no tool");
	if (warm) {
		const ctx = { mode: "tui", hasUI: true, cwd: process.cwd(), ui: { notify: () => {} } };
		for (const handler of handlers.get("session_start") ?? []) await handler({ type: "session_start" }, ctx);
		// The preload starts PRELOAD_DELAY_MS after session_start; give it ample time to finish.
		await sleep(3_000);
	}
	// pi starts a run before the model can call: what ours loads after start-up is in by then.
	for (const handler of handlers.get("before_agent_start") ?? [])
		await handler({ type: "before_agent_start" }, { mode: "tui", hasUI: true, ui: {} });
	const { tui } = quietTui(120, 40);
	const params = form === "typical" ? demoAskParams(repo) : largestAskParams();
	const started = process.hrtime.bigint();
	const mounted = await mountTool(tool, params, { tui, theme: themeOf(), keybindings });
	mounted.component.render(120);
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	if (warm && form === "largest") {
		const visits: number[] = [];
		for (const key of VISITS) {
			await sleep(VISIT_GAP_MS);
			const from = process.hrtime.bigint();
			mounted.component.handleInput?.(key);
			mounted.component.render(120);
			visits.push(Number(process.hrtime.bigint() - from) / 1e6);
		}
		process.stdout.write(`${VISITS_PREFIX} ${visits.join(" ")}\n`);
	}
	process.stdout.write(`${ms}\n`);
	process.exit(0);
}

function themeOf() {
	const holder = globalThis as unknown as Record<symbol, Parameters<typeof mountTool>[2]["theme"] | undefined>;
	const theme =
		holder[Symbol.for("@earendil-works/pi-coding-agent:theme")] ??
		holder[Symbol.for("@mariozechner/pi-coding-agent:theme")];
	if (!theme) throw new Error("pi's theme is not initialised");
	return theme;
}

/** Spawns `runs` fresh processes of each kind; the medians, in ms; for the largest form, every first visit's ms. */
export function measureFirstAsk(
	repo: string,
	piArg: string,
	runs: number,
	form: FirstAskForm,
): { coldMs: number; warmMs: number; visitsMs: number[] } {
	const visitsMs: number[] = [];
	const once = (kind: "cold" | "warm") => {
		const script = join(repo, "scripts", "bench.mjs");
		const run = spawnSync(process.execPath, [script, "--pi", piArg, "--first-ask", kind, "--first-ask-form", form], {
			encoding: "utf8",
		});
		const lines = run.stdout.trim().split("\n");
		const value = Number(lines.at(-1));
		const visits = lines.find((line) => line.startsWith(VISITS_PREFIX));
		if (visits) visitsMs.push(...visits.slice(VISITS_PREFIX.length).trim().split(" ").map(Number));
		if (run.status !== 0 || !Number.isFinite(value))
			throw new Error(`first-ask ${kind} failed: ${run.stderr || run.stdout}`);
		return value;
	};
	const cold: number[] = [];
	const warm: number[] = [];
	for (let i = 0; i < runs; i++) {
		cold.push(once("cold"));
		warm.push(once("warm"));
	}
	const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
	return { coldMs: median(cold), warmMs: median(warm), visitsMs };
}
