/**
 * pi without a UI: `pi -p` (print) and `pi --mode json`, stdin from /dev/null
 * (pi-facts: both wait for stdin to close). Each message is its own prompt,
 * one after the other in the same process.
 */

import { spawn } from "node:child_process";
import type { PiEnv } from "./pi-env.ts";

export interface HeadlessRun {
	exitCode: number | null;
	stdout: string;
	stderr: string;
	/** For `--mode json`: every line of stdout, parsed. */
	events: Record<string, unknown>[];
}

export function runHeadless(piEnv: PiEnv, mode: "print" | "json", messages: string[], timeoutMs = 30_000): Promise<HeadlessRun> {
	const modeArgs = mode === "print" ? ["-p"] : ["--mode", "json"];
	const [pi = "pi", ...args] = piEnv.command;
	const child = spawn(pi, [...args, ...modeArgs, ...messages], {
		cwd: piEnv.cwd,
		env: piEnv.env,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	child.stdout.on("data", (chunk: Buffer) => {
		stdout += chunk.toString("utf8");
	});
	child.stderr.on("data", (chunk: Buffer) => {
		stderr += chunk.toString("utf8");
	});
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			reject(new Error(`pi ${modeArgs.join(" ")} did not exit within ${timeoutMs} ms.\nstdout:\n${stdout.slice(-2000)}\nstderr:\n${stderr.slice(-2000)}`));
		}, timeoutMs);
		child.on("error", (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on("exit", (exitCode) => {
			clearTimeout(timer);
			const events =
				mode === "json"
					? stdout
							.split("\n")
							.filter((line) => line.trim() !== "")
							.map((line) => JSON.parse(line) as Record<string, unknown>)
					: [];
			resolve({ exitCode, stdout, stderr, events });
		});
	});
}
