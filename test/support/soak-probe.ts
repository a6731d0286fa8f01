/**
 * A probe inside pi for the soak (scripts/soak): appends one JSON line to the file named by SOAK_PROBE_ENV when an
 * ask_user form waits (with its browser page's address), opens or closes, when pi starts waiting on one of its own
 * dialogs (`prompt`), when a tool call ends, and the address of the local channel the session listens on; and, every
 * SOAK_SAMPLE_ENV ended tool calls and a second after each run ends (`idle`), a sample of the process's resources: the
 * heap after a full collection (when pi runs with `--expose-gc`), its open file descriptors and its active handles and
 * timers by kind. The soak reads the file from outside; nothing here answers or changes a form.
 */

import { appendFileSync, readdirSync } from "node:fs";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export const SOAK_PROBE_ENV = "PI_SOAK_PROBE";
export const SOAK_SAMPLE_ENV = "PI_SOAK_SAMPLE_EVERY";

export type ProbeLine =
	| { kind: "opened" | "prompt" | "ended"; n: number }
	| { kind: "closed"; n: number; status: string }
	| { kind: "channel"; address: string | undefined }
	| { kind: "waiting"; url: string | undefined }
	| { kind: "sample"; n: number; idle: boolean; heapBytes: number; fds: number; resources: Record<string, number> };

export default function soakProbe(pi: ExtensionAPI): void {
	const file = process.env[SOAK_PROBE_ENV];
	if (!file) return;
	const every = Number(process.env[SOAK_SAMPLE_ENV] ?? "100");
	const write = (line: ProbeLine) => appendFileSync(file, `${JSON.stringify(line)}\n`);
	const counts = { opened: 0, closed: 0, prompt: 0, ended: 0 };
	const sample = (idle: boolean) => {
		(globalThis as { gc?: () => void }).gc?.();
		const resources: Record<string, number> = {};
		for (const kind of process.getActiveResourcesInfo()) resources[kind] = (resources[kind] ?? 0) + 1;
		const fds = readdirSync("/proc/self/fd").length;
		write({ kind: "sample", n: counts.ended, idle, heapBytes: process.memoryUsage().heapUsed, fds, resources });
	};
	pi.events.on("ask_user:progress", (event) => {
		if ((event as { progress?: { phase?: string } }).progress?.phase === "opened")
			write({ kind: "opened", n: ++counts.opened });
	});
	pi.events.on("ask_user:waiting", (event) => write({ kind: "waiting", url: (event as { url?: string }).url }));
	pi.events.on("ask_user:closed", (event) => {
		const status = String((event as { details?: { status?: unknown } }).details?.status);
		write({ kind: "closed", n: ++counts.closed, status });
	});
	pi.on("ui_prompt_start", () => write({ kind: "prompt", n: ++counts.prompt }));
	pi.on("tool_execution_end", () => {
		write({ kind: "ended", n: ++counts.ended });
		if (every > 0 && counts.ended % every === 0) sample(false);
	});
	pi.on("session_start", () => {
		// The local channel this session listens on (ask_user opens it at session start).
		setTimeout(() => write({ kind: "channel", address: process.env["PI_ASK_USER_CHANNEL"] }), 500).unref();
		setTimeout(() => sample(true), 1000).unref();
	});
	pi.on("agent_end", () => void setTimeout(() => sample(true), 1000).unref());
}
