/**
 * The soak's side of test/support/soak-probe.ts: a pi that runs it (with `--expose-gc`, so its heap samples are taken
 * after a full collection), and the lines it wrote, read as they come.
 */

import { closeSync, fstatSync, openSync, readSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type PiCommand, THIS_PI } from "../isolated-pi.mjs";
import { REPO_ROOT } from "../../test/support/pi-env.ts";
import { type ProbeLine, SOAK_PROBE_ENV, SOAK_SAMPLE_ENV } from "../../test/support/soak-probe.ts";

export const SOAK_PROBE = join(REPO_ROOT, "test", "support", "soak-probe.ts");

/** This checkout's pi, its node started with `--expose-gc`. */
export const PI_WITH_GC: PiCommand = Object.freeze({
	...THIS_PI,
	argv: Object.freeze([THIS_PI.argv[0] as string, "--expose-gc", ...THIS_PI.argv.slice(1)]),
});

export type Sample = Extract<ProbeLine, { kind: "sample" }>;

/** The probe's file and what it has written so far. */
export class ProbeLog {
	readonly lines: ProbeLine[] = [];
	private offset = 0;
	private rest = "";

	constructor(readonly path: string) {
		writeFileSync(path, "");
	}

	/** The environment that turns the probe on in pi: its file, and a sample every `every` closed forms. */
	env(every: number): Record<string, string> {
		return { [SOAK_PROBE_ENV]: this.path, [SOAK_SAMPLE_ENV]: String(every) };
	}

	/** Reads what was appended since the last call. */
	read(): ProbeLine[] {
		const fd = openSync(this.path, "r");
		try {
			const size = fstatSync(fd).size;
			if (size <= this.offset) return this.lines;
			const bytes = Buffer.alloc(size - this.offset);
			this.offset += readSync(fd, bytes, 0, bytes.length, this.offset);
			const text = this.rest + bytes.toString("utf8");
			const end = text.lastIndexOf("\n") + 1;
			this.rest = text.slice(end);
			for (const line of text.slice(0, end).split("\n"))
				if (line !== "") this.lines.push(JSON.parse(line) as ProbeLine);
			return this.lines;
		} finally {
			closeSync(fd);
		}
	}

	count(kind: ProbeLine["kind"]): number {
		return this.read().filter((line) => line.kind === kind).length;
	}

	samples(): Sample[] {
		return this.read().filter((line): line is Sample => line.kind === "sample");
	}
}
