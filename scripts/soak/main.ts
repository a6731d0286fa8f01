/**
 * The soak, part by part (each in its own file here), then the invariants every figure must meet. A part that fails
 * outright is reported with its error and the others still run. `--smoke`: the small version (test/e2e/soak.test.ts);
 * `--only a,b`: some parts; `--seed N`: the random choices of an earlier run (the kills, the options chosen).
 */

import { type ChannelFigures, soakChannel } from "./channel.ts";
import { type ChildrenFigures, soakChildren } from "./children.ts";
import { type KeptFigures, soakKept } from "./kept.ts";
import { type SequentialFigures, soakSequential } from "./sequential.ts";
import { seeded } from "./soon.ts";
import { soakWeb, type WebFigures } from "./web.ts";

export const PARTS = ["children", "sequential", "web", "channel", "kept"] as const;
type Part = (typeof PARTS)[number];

export interface SoakFigures {
	seed: number;
	smoke: boolean;
	children?: ChildrenFigures | { error: string };
	sequential?: SequentialFigures | { error: string };
	web?: WebFigures | { error: string };
	channel?: ChannelFigures | { error: string };
	kept?: KeptFigures | { error: string };
	seconds: number;
	/** The invariants that did not hold, in words. */
	failed: string[];
	ok: boolean;
}

export async function runSoak(argv: string[], log: (line: string) => void): Promise<SoakFigures> {
	const started = Date.now();
	const smoke = argv.includes("--smoke");
	const value = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
	const only = value("--only")?.split(",") ?? PARTS;
	const seed = Number(value("--seed") ?? Math.floor(Math.random() * 2 ** 31));
	const random = seeded(seed);
	log(`soak: seed ${seed}${smoke ? ", smoke" : ""}: ${only.join(", ")}`);
	const runs: Record<Part, () => Promise<unknown>> = {
		children: () =>
			soakChildren(
				smoke
					? [
							{ runner: 2, raw: 1, kills: 1 },
							{ runner: 2, raw: 1, kills: 0, abortAfter: 1, flood: true },
						]
					: [
							{ runner: 8, raw: 2, kills: 3 },
							{ runner: 8, raw: 2, kills: 2, flood: true },
							{ runner: 8, raw: 2, kills: 1, abortAfter: 4 },
						],
				smoke ? { runner: 2, raw: 1 } : { runner: 8, raw: 2 },
				random,
				log,
			),
		sequential: () => soakSequential(Number(value("--asks") ?? (smoke ? 30 : 1000)), log),
		web: () => soakWeb(smoke ? 2 : 10, smoke ? 300 : 5000, random, log),
		channel: () => soakChannel(smoke ? 20 : 200, log),
		kept: () => soakKept(log),
	};
	const figures: Partial<Record<Part, unknown>> = {};
	for (const part of PARTS.filter((part) => only.includes(part))) {
		const from = Date.now();
		try {
			figures[part] = await runs[part]();
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			figures[part] = { error: message.split("\n").slice(0, 3).join(" ") };
			log(`${part}: failed: ${message}`);
		}
		log(`${part}: ${Math.round((Date.now() - from) / 1000)} s`);
	}
	const failed = invariants(figures);
	for (const problem of failed) log(`soak: FAILED: ${problem}`);
	return {
		seed,
		smoke,
		...(figures as Pick<SoakFigures, Part>),
		seconds: Math.round((Date.now() - started) / 1000),
		failed,
		ok: failed.length === 0,
	};
}

/** What must hold of the figures, each broken one said in words. */
export function invariants(figures: Partial<Record<Part, unknown>>): string[] {
	const failed: string[] = [];
	const check = (holds: boolean, what: string) => holds || failed.push(what);
	for (const [part, value] of Object.entries(figures))
		if (value && typeof value === "object" && "error" in value)
			failed.push(`${part}: ${(value as { error: string }).error}`);
	const ok = <T>(value: unknown): value is T =>
		value !== undefined && !(typeof value === "object" && value && "error" in value);

	const { children, sequential, web, channel, kept } = figures;
	if (ok<ChildrenFigures>(children)) {
		check(children.deliveredOnce, "children: an answered form did not reach its own child exactly once");
		check(children.answered > 0 && children.killed > 0, "children: no form was answered, or no child killed");
		check(children.leftOnScreen === 0, `children: ${children.leftOnScreen} killed children's forms stayed on screen`);
		check(children.leftRunning === 0, `children: ${children.leftRunning} processes left running`);
	}
	if (ok<SequentialFigures>(sequential)) {
		check(
			sequential.answered === sequential.asks && sequential.asGiven,
			"sequential: an answer did not reach the model as given",
		);
		check(sequential.keptLeft === 0, `sequential: ${sequential.keptLeft} files left in the kept folder`);
		check(sequential.timersLeft <= 0, `sequential: ${sequential.timersLeft} timers left`);
		check(new Set(sequential.fds.slice(1, -1)).size === 1, `sequential: open file descriptors grew: ${sequential.fds}`);
		// pi keeps every turn: ask_user may not add to what pi's own select dialog costs a turn (within the heap's noise,
		// which a short run does not get past).
		check(
			sequential.asks < 200 || sequential.heapKiBPerAsk <= sequential.baselineKiBPerTurn + 4,
			`sequential: the heap grew ${sequential.heapKiBPerAsk} KiB per ask, pi's own dialog ${sequential.baselineKiBPerTurn}`,
		);
		check(sequential.leftRunning === 0, `sequential: ${sequential.leftRunning} processes left running`);
	}
	if (ok<WebFigures>(web)) {
		check(web.answered === web.of, `web: ${web.of - web.answered} forms not answered through the page`);
		check(web.fds[0] === web.fds[1], `web: pi's open file descriptors went from ${web.fds[0]} to ${web.fds[1]}`);
		check(web.leftRunning === 0, `web: ${web.leftRunning} processes left running`);
	}
	if (ok<ChannelFigures>(channel)) {
		check(
			channel.served === channel.of,
			`channel: ${channel.of - channel.served} children not served (${channel.failures})`,
		);
		check(channel.leftRunning === 0, `channel: ${channel.leftRunning} processes left running`);
	}
	if (ok<KeptFigures>(kept)) {
		for (const [fault, outcome] of Object.entries(kept)) {
			if (typeof outcome !== "object") continue;
			const warnings = fault === "twoPis" ? 0 : 1;
			check(outcome.form !== "lost", `kept: ${fault}: what was typed did not reach the model`);
			check(outcome.warnings === warnings, `kept: ${fault}: ${outcome.warnings} warnings, not ${warnings}`);
			check(outcome.named, `kept: ${fault}: the warning does not name the file`);
			check(outcome.leftBehind === 0, `kept: ${fault}: ${outcome.leftBehind} files left behind`);
		}
		check(kept.leftRunning === 0, `kept: ${kept.leftRunning} processes left running`);
	}
	return failed;
}
