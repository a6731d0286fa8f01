import type { ToolDefinition } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { ToolHost } from "../src/tool/call.ts";
import { footprintOf } from "../scripts/bench/footprint.ts";
import { createAskUserTool, PROMPT_GUIDELINES, PROMPT_SNIPPET, TOOL_DESCRIPTION } from "../src/tool/tool.ts";
import { TOOL_NAME } from "../src/core/types.ts";

/** The steering of the contract (§4), as the words each piece must carry. */
const RULES: Record<string, RegExp> = {
	"ask only when genuinely ambiguous": /genuinely ambiguous|several reasonable paths/i,
	"batch related decisions": /batch/i,
	"never add an Other option": /(never add an|no) "?Other"? option/i,
	"recommended option first": /recommended option first/i,
};

describe("the steering text", () => {
	const pieces = {
		description: TOOL_DESCRIPTION,
		promptSnippet: PROMPT_SNIPPET,
		promptGuidelines: PROMPT_GUIDELINES.join("\n"),
	};

	for (const [name, text] of Object.entries(pieces)) {
		it(`${name} says every rule of the contract`, () => {
			const missing = Object.entries(RULES)
				.filter(([, pattern]) => !pattern.test(text))
				.map(([rule]) => rule);
			expect(missing).toEqual([]);
		});
	}

	it("names the tool in every guideline (pi appends them flat to the system prompt)", () => {
		for (const guideline of PROMPT_GUIDELINES) expect(guideline).toContain(TOOL_NAME);
	});

	it("costs at most 480 o200k tokens a turn, the schema with its optional reason included", () => {
		// The host is not read for the footprint: only the steering it may replace.
		const { tokens, parts } = footprintOf(createAskUserTool({} as ToolHost) as ToolDefinition);
		console.log(`footprint: ${tokens} tokens`, parts);
		expect(tokens).toBeLessThanOrEqual(480);
	});
});
