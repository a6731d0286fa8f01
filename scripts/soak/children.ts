/**
 * Children asking at once through one parent, with random kills: the real pi TUI in tmux as the parent, pi's own
 * example runner (`pi --mode json -p` children, which load ask_user from pi's settings and find the parent's channel
 * in their inherited environment) and raw channel clients started from the parent's bash tool (what any command the
 * model runs can do with the channel). Each round, the parent's model starts every child in one turn (two runner
 * calls of up to four tasks and one bash call, run by pi in parallel); the forms queue in the parent's TUI, one at a
 * time, and each is answered with a random option's key, or its child is killed (SIGKILL), whether its form is on
 * screen or still waits its turn. In one round the parent's run is stopped from a form (Ctrl+C), in one a flood holds
 * the parent's channel, and at the end the parent itself is killed while every child waits.
 *
 * Each child asks a form whose options carry its tag: an answer misrouted to another child would not even validate.
 * Checked from what the children's models received (the shared model log) and what the raw clients printed: every
 * answered form reached its own child, once; no killed child's form was on screen after its kill had been taken in
 * (KILL_GRACE_MS); no process of the soak was left running.
 */

import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { AskDetails, RelayReply } from "../../src/core/types.ts";
import { floodChannel } from "../../test/support/channel-flood.ts";
import { processesOf } from "../../test/support/harness.ts";
import { callTool, type ScriptedConversation, scriptOf } from "../../test/support/model-script.ts";
import type { PiEnv } from "../../test/support/pi-env.ts";
import {
	AGENT,
	channelSockets,
	createPlainRunnerPiEnv,
	PI_EXAMPLE_RUNNER,
	RAW_CHANNEL_CLIENT,
} from "../../test/support/plain-runners.ts";
import { TmuxPi } from "../../test/support/tmux.ts";
import { leftRunning } from "./sequential.ts";
import { type Random, soon } from "./soon.ts";

/** How long after a kill (the process gone) its form may still be on screen. */
const KILL_GRACE_MS = 1_500;
/** pi's example runner runs at most four tasks of one call at a time. */
const RUNNER_BATCH = 4;

export interface RoundPlan {
	runner: number;
	raw: number;
	kills: number;
	/** Stop the parent's run (Ctrl+C on the form) once this many forms were answered. */
	abortAfter?: number;
	/** A flood of connections that never prove the token holds the parent's channel all round. */
	flood?: boolean;
}

export interface ChildrenFigures {
	rounds: number;
	/** Children that asked (every one of every round, the last included). */
	asked: number;
	/** Most at once: the largest round. */
	atOnce: number;
	answered: number;
	/** Every answered form reached its own child, exactly once, with the option chosen. */
	deliveredOnce: boolean;
	killed: number;
	/** Forms of killed children seen on screen after KILL_GRACE_MS. */
	leftOnScreen: number;
	/** The longest a killed child's form stayed on screen, ms. */
	goneMs: number;
	/** Forms closed by stopping the parent's run, and children the parent's own death left waiting. */
	abortedWithRun: number;
	orphaned: number;
	floodClosed: number;
	leftRunning: number;
}

type Child = {
	tag: string;
	kind: "runner" | "raw";
	state: "waiting" | "answered" | "killed" | "aborted";
	chose?: string;
	killedAt?: number;
};

const label = (tag: string, i: number) => `${tag}-${"ABC"[i]}`;
const questionOf = (tag: string) => ({
	id: "pick",
	header: "Pick",
	question: `Child ${tag}: which?`,
	options: [0, 1, 2].map((i) => ({ label: label(tag, i) })),
});
/** What the screen shows of the form on top: who asks. */
// A child of pi's example runner is named after its agent, with its task after " · "; a raw client by its own name.
const SHOWN = /Asked by (?:[^·\n]* · )?(?:Task: )?(?:CHILD|raw)-(r\d+[ck]\d+)/;
const shownBy = (tag: string) => new RegExp(`Asked by (?:[^·\\n]* · )?(?:Task: )?(?:CHILD|raw)-${tag}\\b`);

export async function soakChildren(
	plans: RoundPlan[],
	last: { runner: number; raw: number },
	random: Random,
	log: (line: string) => void,
): Promise<ChildrenFigures> {
	const rounds = [...plans, { ...last, kills: 0 }];
	const children = rounds.map((plan, r) => [
		...Array.from(
			{ length: plan.runner },
			(_, k): Child => ({ tag: `r${r + 1}c${k + 1}`, kind: "runner", state: "waiting" }),
		),
		...Array.from(
			{ length: plan.raw },
			(_, k): Child => ({ tag: `r${r + 1}k${k + 1}`, kind: "raw", state: "waiting" }),
		),
	]);
	const env = createPlainRunnerPiEnv(scriptOf(...rounds.flatMap((_, r) => conversations(r, children[r] ?? []))), {
		runners: [PI_EXAMPLE_RUNNER],
	});
	for (const dir of ["pids", "out"]) mkdirSync(join(env.cwd, dir));
	const figures = { leftOnScreen: 0, goneMs: 0, floodClosed: 0, leftRunning: 0, orphaned: 0 };
	const tui = await TmuxPi.start(env, { cols: 120, rows: 40 });
	try {
		await tui.waitForReady();
		for (const [r, plan] of plans.entries()) {
			const round = children[r] ?? [];
			const flood = plan.flood
				? await floodChannel(await socketOf(env), { silent: 300, garbage: 30, overLong: 10, sustain: true })
				: undefined;
			try {
				await tui.type(`round ${r + 1}`);
				await tui.send("Enter");
				// Every child's form sent before the first is answered: they all wait at once.
				await soon(
					() => round.every((child) => asking(env, child)),
					`every child of round ${r + 1} to ask`,
					60_000,
					200,
				);
				await play(tui, env, round, plan, random, figures);
			} finally {
				figures.floodClosed += flood?.closedByServer ?? 0;
				flood?.stop();
			}
			await tui.waitForGone("Working", 60_000);
			figures.leftRunning += await childrenLeft(env, tui.pid);
			log(
				`children: round ${r + 1}: ${round.length} asked, ${count(round, "answered")} answered, ${count(round, "killed")} killed, ${count(round, "aborted")} closed with the run${plan.flood ? ", under a flood of the channel" : ""}`,
			);
		}
		// The last round: every child asks, then the parent is killed.
		const round = children.at(-1) ?? [];
		await tui.type(`round ${rounds.length}`);
		await tui.send("Enter");
		await soon(() => round.every((child) => asking(env, child)), "every child of the last round to ask", 60_000, 200);
		await tui.waitFor(SHOWN);
		process.kill(tui.pid, "SIGKILL");
		await tui.waitForExit();
		for (const child of round) child.state = "aborted";
		figures.orphaned = round.length;
		figures.leftRunning += await leftRunning(env, 20_000);
		log(`children: round ${rounds.length}: ${round.length} asked, then the parent was killed`);
		const all = children.flat();
		return {
			rounds: rounds.length,
			asked: all.length,
			atOnce: Math.max(...children.map((round) => round.length)),
			answered: count(all, "answered"),
			deliveredOnce: deliveredOnce(env, all),
			killed: count(all, "killed"),
			leftOnScreen: figures.leftOnScreen,
			goneMs: figures.goneMs,
			abortedWithRun: count(children.slice(0, -1).flat(), "aborted"),
			orphaned: figures.orphaned,
			floodClosed: figures.floodClosed,
			leftRunning: figures.leftRunning,
		};
	} finally {
		await tui.kill();
		// Whatever a failure left running goes too (counted above when nothing failed).
		await leftRunning(env, 0);
		env.cleanup();
	}
}

const count = (children: Child[], state: Child["state"]) => children.filter((child) => child.state === state).length;

/** The parent's turn for round `r` (every child started at once), and each child's own conversation. */
function conversations(r: number, round: Child[]): ScriptedConversation[] {
	const runner = round.filter((child) => child.kind === "runner");
	const raw = round.filter((child) => child.kind === "raw");
	const batches = Array.from({ length: Math.ceil(runner.length / RUNNER_BATCH) }, (_, b) =>
		runner.slice(b * RUNNER_BATCH, (b + 1) * RUNNER_BATCH),
	);
	const rawCommand = raw
		.map((child) => {
			const request = JSON.stringify({ v: 1, asker: `raw-${child.tag}`, questions: [fullQuestion(child.tag)] });
			return `${process.execPath} ${RAW_CHANNEL_CLIENT} '${request}' > out/${child.tag} & echo $! > pids/${child.tag}`;
		})
		.join("; ");
	const parent: ScriptedConversation = {
		user: `round ${r + 1}`,
		replies: [
			{
				toolCalls: [
					...batches.map((batch) => ({
						name: "subagent",
						arguments: { tasks: batch.map((child) => ({ agent: AGENT, task: `CHILD-${child.tag}: pick one` })) },
					})),
					...(raw.length ? [{ name: "bash", arguments: { command: `${rawCommand}; wait` } }] : []),
				],
			},
			{ text: `Round ${r + 1} over` },
		],
	};
	const own = runner.map(
		(child): ScriptedConversation => ({
			user: `CHILD-${child.tag}`,
			replies: [
				callTool("bash", { command: `echo $PPID > pids/${child.tag}` }),
				callTool("ask_user", { questions: [questionOf(child.tag)] }),
				{ text: `${child.tag} got: {{lastToolResult}}` },
			],
		}),
	);
	return [parent, ...own];
}

/** The question as a relay request carries it: every field given. */
function fullQuestion(tag: string) {
	const question = questionOf(tag);
	return {
		...question,
		options: question.options.map((option) => ({ ...option, value: option.label, recommended: false })),
		multiSelect: false,
		allowOther: false,
		required: true,
	};
}

/** One round: answer the form on top, or kill a child, until every child is answered, killed or closed with the run. */
async function play(
	tui: TmuxPi,
	env: PiEnv,
	round: Child[],
	plan: RoundPlan,
	random: Random,
	figures: { leftOnScreen: number; goneMs: number },
): Promise<void> {
	let kills = plan.kills;
	let answered = 0;
	const waiting = () => round.filter((child) => child.state === "waiting");
	while (waiting().length > 0) {
		const screen = await tui.waitFor(SHOWN, 60_000).catch((error: unknown) => {
			throw new Error(
				`${error}\nStill waiting: ${waiting()
					.map((child) => `${child.tag}: ${whatItGot(env, child)}`)
					.join("; ")}`,
			);
		});
		const shown = round.find((child) => child.tag === SHOWN.exec(screen)?.[1]);
		if (shown === undefined) throw new Error(`a form of no child of this round is on screen:\n${screen}`);
		if (shown.state === "killed") {
			// Still leaving: looked at again in a moment; left for good: counted, and waited out.
			if (Date.now() - (shown.killedAt ?? 0) < KILL_GRACE_MS) await sleep(50);
			else {
				figures.leftOnScreen++;
				await tui.waitForGone(shownBy(shown.tag), 10_000);
			}
			continue;
		}
		if (shown.state !== "waiting") throw new Error(`the form of ${shown.tag} (${shown.state}) is on screen`);
		if (plan.abortAfter !== undefined && answered >= plan.abortAfter) {
			await tui.send("C-c");
			for (const child of waiting()) child.state = "aborted";
			await tui.waitForGone(SHOWN, 15_000);
			return;
		}
		const killable = waiting().filter((child) => pidOf(env, child) !== undefined);
		// A kill now and then; every one planned happens before the round's last form is answered.
		if (kills > 0 && killable.length > 0 && (random() < 0.4 || kills >= waiting().length)) {
			kills--;
			// Half the time the child whose form is on screen, else one whose form waits its turn (or is yet to come).
			const victim = (killable.includes(shown) && random() < 0.5 ? shown : random.pick(killable)) as Child;
			const pid = pidOf(env, victim) as number;
			process.kill(pid, "SIGKILL");
			await soon(() => !processesOf(env).some((p) => p.pid === pid), `child ${victim.tag} to end`);
			victim.state = "killed";
			victim.killedAt = Date.now();
			if (victim === shown) {
				const started = Date.now();
				await tui.waitForGone(shownBy(victim.tag), 10_000);
				figures.goneMs = Math.max(figures.goneMs, Date.now() - started);
			}
			continue;
		}
		const choice = Math.floor(random() * 3);
		shown.chose = label(shown.tag, choice);
		shown.state = "answered";
		answered++;
		await tui.send(String(choice + 1));
		await tui.waitForGone(shownBy(shown.tag), 10_000);
	}
}

/** What a child received from ask_user, or printed: for an error message. */
function whatItGot(env: PiEnv, child: Child): string {
	if (child.kind === "raw") {
		const file = join(env.cwd, "out", child.tag);
		return existsSync(file) ? readFileSync(file, "utf8").trim() || "(nothing yet)" : "(not started)";
	}
	const own = env.log().filter((entry) => JSON.stringify(entry).includes(`${child.tag}`));
	return JSON.stringify(own.map((entry) => (entry.kind === "call" ? { ...entry, systemPrompt: undefined } : entry)));
}

/** The child's pid, once it has written it (a runner child from its bash tool, a raw client from the parent's). */
function pidOf(env: PiEnv, child: Child): number | undefined {
	const file = join(env.cwd, "pids", child.tag);
	const pid = existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : Number.NaN;
	return pid > 0 ? pid : undefined;
}

/** The child has sent its form: a runner child's model called ask_user (its second reply), a raw client runs. */
function asking(env: PiEnv, child: Child): boolean {
	if (child.kind === "raw") return pidOf(env, child) !== undefined;
	return env.log().some((e) => e.kind === "call" && e.user.includes(`CHILD-${child.tag}`) && e.replyIndex === 1);
}

/** Every answered child received its own answer, exactly once. */
function deliveredOnce(env: PiEnv, children: Child[]): boolean {
	const results = env.toolResults("ask_user").map((entry) => entry.details as AskDetails);
	return children
		.filter((child) => child.state === "answered")
		.every((child) => {
			if (child.kind === "raw") {
				const lines = readFileSync(join(env.cwd, "out", child.tag), "utf8")
					.trim()
					.split("\n");
				const reply = JSON.parse(lines[0] ?? "{}") as RelayReply;
				return (
					lines.length === 1 &&
					reply.status === "answered" &&
					reply.answers["pick"]?.selections[0]?.label === child.chose
				);
			}
			const own = results.filter((details) => details?.questions?.[0]?.question === `Child ${child.tag}: which?`);
			return (
				own.length === 1 &&
				own[0]?.status === "answered" &&
				own[0].answers["pick"]?.selections[0]?.label === child.chose
			);
		});
}

/** The parent's channel socket, once it listens. */
async function socketOf(env: PiEnv): Promise<string> {
	await soon(() => channelSockets(env).length === 1, "the parent's channel socket");
	return channelSockets(env)[0] as string;
}

/** How many processes of the soak, the parent apart, still run 10 s after a round (they are killed). */
async function childrenLeft(env: PiEnv, parent: number): Promise<number> {
	const others = () => processesOf(env).filter((p) => p.pid !== parent);
	const deadline = Date.now() + 10_000;
	while (others().length > 0 && Date.now() < deadline) await sleep(100);
	const left = others();
	for (const { pid } of left) process.kill(pid, "SIGKILL");
	return left.length;
}
