/**
 * The demo's batch (scripts/demo-script.json): a single-select question with
 * previews, a multi-select, an optional question; the keys that answer all
 * three in the TUI with a note and submit; and what the model must then have
 * received. Shared by the TUI tests of both pis.
 */

import { expect } from "vitest";
import { demoAskParams } from "../../scripts/bench/forms.ts";
import type { AskResultSeen } from "./ask-fixtures.ts";
import { QUOTE_PREFIX } from "./model-script.ts";
import { REPO_ROOT } from "./pi-env.ts";
import type { TmuxPi } from "./tmux.ts";

/** The batch the demo asks on any message (the benchmark's typical call too). */
export const DEMO_BATCH: unknown = demoAskParams(REPO_ROOT);

/** The first question is on screen ("How should"): answers all three, notes one option, reviews, submits, and waits for the model's quote. */
export async function answerDemoBatch(screen: TmuxPi): Promise<void> {
	await screen.send("Enter");
	await screen.waitFor("Which requests");
	await screen.send("Space", "Down", "Space", "n");
	await screen.waitFor("Your note on");
	await screen.type("with backoff");
	await screen.send("Enter");
	await screen.waitForGone("Your note on");
	await screen.send("Enter");
	await screen.waitFor("breaking");
	await screen.send("2");
	await screen.waitFor("Review your");
	await screen.send("Enter");
	await screen.waitFor(QUOTE_PREFIX);
}

/** What the model must have received after answerDemoBatch. */
export function expectDemoBatchAnswered(seen: AskResultSeen): void {
	expect(seen.details.status).toBe("answered");
	expect(seen.details.answers["errors"]?.selections).toEqual([{ value: "result", label: "Result value" }]);
	expect(seen.details.answers["retries"]?.selections.map((s) => s.label)).toEqual(["GET", "PUT / DELETE"]);
	expect(seen.details.answers["changelog"]?.selections).toEqual([
		{ value: "minor", label: "No, minor with a migration note" },
	]);
	expect(seen.details.notes).toEqual([{ questionId: "retries", option: "PUT / DELETE", text: "with backoff" }]);
	expect(seen.text).toContain('note on "PUT / DELETE": "with backoff"');
}
