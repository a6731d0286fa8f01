/**
 * pi without a UI: `pi -p` (print) and `pi --mode json`, stdin from /dev/null
 * (pi-facts: both wait for stdin to close). Each message is its own prompt,
 * one after the other in the same process.
 */

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHANNEL_READY, encodeChannelAddress } from "../../src/relay/channel/wire.ts";
import { CHANNEL_ENV } from "../../src/core/types.ts";
import { type PiEnv, WAIT_MS } from "./pi-env.ts";

export interface HeadlessRun {
	exitCode: number | null;
	stdout: string;
	stderr: string;
	/** For `--mode json`: every line of stdout, parsed. */
	events: Record<string, unknown>[];
}

export function runHeadless(
	piEnv: PiEnv,
	mode: "print" | "json",
	messages: string[],
	timeoutMs = 2 * WAIT_MS,
): Promise<HeadlessRun> {
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
			reject(
				new Error(
					`pi ${modeArgs.join(" ")} did not exit within ${timeoutMs} ms.\nstdout:\n${stdout.slice(-2000)}\nstderr:\n${stderr.slice(-2000)}`,
				),
			);
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

/**
 * The environment of a pi whose ancestor session answers pi's check before a
 * run (a connection that proves nothing and closes) and is gone by the time
 * the model calls ask_user: it stops listening after its first connection, and
 * its socket's directory goes with it.
 */
export async function parentGoneAfterTheCheck(): Promise<Record<string, string>> {
	const dir = mkdtempSync(join(tmpdir(), "pi-ask-user-gone-"));
	const path = join(dir, "parent.sock");
	const server = createServer((socket) => {
		server.close();
		socket.on("error", () => {});
		socket.once("data", () => socket.end(`${CHANNEL_READY}\n`));
	});
	server.on("close", () => rmSync(dir, { recursive: true, force: true }));
	await new Promise<void>((resolve) => server.listen(path, resolve));
	server.unref();
	return { [CHANNEL_ENV]: encodeChannelAddress({ path, token: "ab".repeat(32) }) };
}
