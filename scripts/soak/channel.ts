/**
 * The local channel under a flood: a real pi (`--mode rpc`, whose session listens on the channel as the TUI's does)
 * as the parent, its forms answered through pi's dialogs by the RPC client; a flood (test/support/channel-flood.ts)
 * from this process of connections that never say hello, lines of garbage and lines that never end, each one the
 * server closes opened again at once; and legitimate children in a process of their own (channel-children.ts), each
 * doing what a child pi does with the real client — find the parent, then send its form — a few at a time. Every one
 * must be served; the figures are how long they waited.
 */

import { spawn } from "node:child_process";
import { join } from "node:path";
import { floodChannel } from "../../test/support/channel-flood.ts";
import { scriptOf } from "../../test/support/model-script.ts";
import { ASK_USER_EXTENSION, createPiEnv, REPO_ROOT } from "../../test/support/pi-env.ts";
import { RpcPi } from "../../test/support/rpc-client.ts";
import type { ChildOutcome } from "./channel-children.ts";
import { ProbeLog, SOAK_PROBE } from "./probe.ts";
import { leftRunning } from "./sequential.ts";
import { soon } from "./soon.ts";

export interface ChannelFigures {
	/** The flood: connections held open, of which lines of garbage and lines that never end. */
	flood: number;
	garbage: number;
	overLong: number;
	/** Connections of the flood the server closed (and the flood opened again at once). */
	closedByServer: number;
	/** Legitimate children served (the parent found, the form answered), of all. */
	served: number;
	of: number;
	maxWaitMs: number;
	medianWaitMs: number;
	/** Why those not served were not, the first few. */
	failures: string[];
	leftRunning: number;
}

export async function soakChannel(children: number, log: (line: string) => void): Promise<ChannelFigures> {
	const env = createPiEnv({ script: scriptOf(), extensions: [ASK_USER_EXTENSION, SOAK_PROBE] });
	const probe = new ProbeLog(join(env.root, "probe.jsonl"));
	Object.assign(env.env, probe.env(0));
	// The user: the first option of every form, at once.
	const rpc = RpcPi.start(env, (request) =>
		request.method === "select" ? { value: request.options[0] ?? "" } : { cancelled: true },
	);
	const sizes = { silent: 300, garbage: 50, overLong: 20 };
	let flood: Awaited<ReturnType<typeof floodChannel>> | undefined;
	try {
		await soon(() => probe.read().some((line) => line.kind === "channel"), "the parent's channel", undefined, 50);
		const address = probe.lines.find((line) => line.kind === "channel")?.address;
		if (!address) throw new Error("the parent pi published no channel");
		const path = /^1:[0-9a-f]{64}:(.+)$/s.exec(address)?.[1] as string;
		flood = await floodChannel(path, { ...sizes, sustain: true });
		log(`channel: a flood of ${sizes.silent + sizes.garbage + sizes.overLong} connections holds the parent's channel`);
		const outcomes = await childrenProcess(address, children);
		const waits = outcomes.map((outcome) => outcome.waitMs).sort((a, b) => a - b);
		const served = outcomes.filter((outcome) => outcome.served).length;
		log(`channel: ${served} of ${children} children served`);
		return {
			flood: sizes.silent + sizes.garbage + sizes.overLong,
			garbage: sizes.garbage,
			overLong: sizes.overLong,
			closedByServer: flood.closedByServer,
			served,
			of: children,
			maxWaitMs: waits.at(-1) ?? 0,
			medianWaitMs: waits[Math.floor(waits.length / 2)] ?? 0,
			failures: outcomes.flatMap((outcome) => (outcome.why ? [outcome.why] : [])).slice(0, 3),
			leftRunning: (flood.stop(), await rpc.close(), await leftRunning(env)),
		};
	} finally {
		flood?.stop();
		await rpc.close();
		env.cleanup();
	}
}

/** The children's process (scripts/soak.mjs --channel-children), with the address as a child inherits it. */
function childrenProcess(address: string, count: number): Promise<ChildOutcome[]> {
	return new Promise((resolve, reject) => {
		const child = spawn(
			process.execPath,
			[join(REPO_ROOT, "scripts", "soak.mjs"), "--channel-children", String(count)],
			{
				env: { ...process.env, PI_ASK_USER_CHANNEL: address },
				stdio: ["ignore", "pipe", "inherit"],
			},
		);
		let out = "";
		child.stdout.on("data", (chunk: Buffer) => {
			out += chunk.toString("utf8");
		});
		child.on("error", reject);
		child.on("exit", (code) => {
			const last = out.trim().split("\n").at(-1) ?? "";
			if (code === 0 && last.startsWith("[")) resolve(JSON.parse(last) as ChildOutcome[]);
			else reject(new Error(`the channel's children failed (exit ${code}): ${out.slice(-1000)}`));
		});
	});
}
