/**
 * The first-call rate: how many calls of the real-call corpus
 * (test/fixtures/real-calls/) ask_user handles right the first time — the
 * form shows what the call meant, or a call over a limit is refused where it
 * must be — judged as the corpus test judges them.
 */

import { join } from "node:path";
import { prepareForm } from "../../src/tool/call.ts";
import { judge, readRealCalls } from "../../test/support/real-calls.ts";

export interface FirstCallRate {
	calls: number;
	/** Distinct pages the calls were read from, and distinct tools they were sent to. */
	sources: number;
	tools: number;
	right: number;
	/** Each call handled wrong: its tool, its source and what went wrong. */
	wrong: string[];
}

export function measureFirstCallRate(repo: string): FirstCallRate {
	const calls = readRealCalls(join(repo, "test", "fixtures", "real-calls"));
	const wrong: string[] = [];
	for (const call of calls) {
		const verdict = judge(call, prepareForm);
		if (!verdict.right) wrong.push(`${call.tool} (${call.source}): ${verdict.why}`);
	}
	const distinct = (values: string[]) => new Set(values).size;
	return {
		calls: calls.length,
		sources: distinct(calls.map((call) => call.source)),
		tools: distinct(calls.map((call) => call.tool)),
		right: calls.length - wrong.length,
		wrong,
	};
}

export function printFirstCallRate(rate: FirstCallRate): void {
	const percent = rate.calls === 0 ? 0 : Math.round((1000 * rate.right) / rate.calls) / 10;
	process.stdout.write(
		`first-call rate: ${rate.right} of ${rate.calls} real calls handled right (${percent}%), from ${rate.sources} sources, sent to ${rate.tools} tools\n`,
	);
	for (const line of rate.wrong) process.stdout.write(`  wrong: ${line}\n`);
	process.stdout.write(
		`${JSON.stringify({ first_call_right: rate.right, first_call_calls: rate.calls, first_call_sources: rate.sources })}\n`,
	);
}
