/**
 * Random key sequences (4,000 by default) on random valid forms through the real
 * component and pi-tui's real Editor, half starting on a narrow terminal and
 * half on a wide one, each resized anywhere in 1–240 on the way. What is
 * checked after every key is in support/random-keys.ts; the independent model
 * of the expected answers is support/answer-model.ts.
 */

import { setKeybindings } from "@mariozechner/pi-tui";
import { beforeAll, expect, test } from "vitest";
import type { AskForm } from "../../src/core/types.ts";
import { piKeybindings } from "../form/support.ts";
import { DB_QUESTION } from "../support/ask-fixtures.ts";
import { RAW } from "./support/answer-model.ts";
import { checkFrame, randomKeysTest, runSequence } from "./support/random-keys.ts";

beforeAll(() => setKeybindings(piKeybindings()));

// The random sequences: half here, half in keys-more.test.ts, so the two halves run side by side.
randomKeysTest(1);

test("the model and the form agree on a fixed sequence that uses every kind of answer", () => {
	const form: AskForm = {
		questions: [
			{ ...DB_QUESTION, header: "DB" },
			{
				id: "targets",
				header: "Targets",
				question: "Which targets?",
				options: [
					{ label: "Linux", value: "Linux", recommended: false },
					{ label: "macOS", value: "macOS", recommended: false },
				],
				multiSelect: true,
				allowOther: true,
				required: false,
			},
		],
	};
	// A note on Postgres, choose SQLite; toggle Linux and macOS, a two-line free answer, then submit from the review.
	const keys = [
		"n",
		..."fast",
		RAW.enter,
		RAW.down,
		RAW.enter,
		RAW.space,
		RAW.down,
		RAW.space,
		RAW.down,
		RAW.space,
		..."中文 🚀",
		RAW.shiftEnter,
		"x",
		RAW.enter,
		RAW.tab,
		RAW.enter,
	];
	runSequence(
		form,
		keys.map((key) => ({ key, resize: null })),
		80,
		30,
		false,
	);
});

test("the frame check catches a line one column too wide, however it is made up", () => {
	const colour = (text: string) => `\x1b[38;2;1;2;3m${text}\x1b[39m`;
	for (const [line, width] of [
		["中文中", 5],
		["🚀🚀x", 4],
		["─".repeat(11), 10],
		[colour("x".repeat(9)), 8],
		["👨‍👩‍👧👨‍👩‍👧", 3],
		["…—“”", 3],
		["\ttab", 5],
	] as const) {
		expect(() => checkFrame([line], width, 60, "probe")).toThrow(/wide at width/);
		expect(() => checkFrame([line], width + 1, 60, "probe")).not.toThrow();
	}
	expect(() => checkFrame(["a", "b", "c", "d"], 80, 3, "probe")).toThrow(/4 lines for 3 terminal rows/);
});
