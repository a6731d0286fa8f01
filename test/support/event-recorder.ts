/**
 * A second extension, as another developer would write one: it listens to
 * ask_user's events on pi.events and writes each to a JSON-lines file
 * (PI_ASK_EVENTS_LOG). With PI_ASK_EVENTS_ANSWER (JSON `{ source, attempts }`)
 * it also answers every waiting form from elsewhere, one attempt after another
 * a second apart, and logs each outcome. Used by test/e2e/attention.test.ts.
 */

import { appendFileSync } from "node:fs";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

interface Answering {
	source: string;
	attempts: unknown[];
}

export default function eventRecorder(pi: ExtensionAPI): void {
	const log = process.env["PI_ASK_EVENTS_LOG"];
	if (!log) return;
	const write = (entry: unknown) => appendFileSync(log, `${JSON.stringify(entry)}\n`);
	const answering = process.env["PI_ASK_EVENTS_ANSWER"]
		? (JSON.parse(process.env["PI_ASK_EVENTS_ANSWER"]) as Answering)
		: undefined;

	for (const event of ["ask_user:waiting", "ask_user:progress", "ask_user:closed"]) {
		pi.events.on(event, (payload) => {
			const { answer, ...rest } = payload as { answer?: (reply: unknown, source: string) => unknown } & Record<
				string,
				unknown
			>;
			write({ event, ...rest, answerable: typeof answer === "function" });
			if (answer && answering) {
				answering.attempts.forEach((attempt, i) => {
					setTimeout(
						() => write({ event: "answer", attempt: i, outcome: answer(attempt, answering.source) }),
						1_000 * (i + 1),
					);
				});
			}
		});
	}
}
