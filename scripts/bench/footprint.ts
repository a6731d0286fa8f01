/**
 * What a tool costs in the prompt on every turn: its description,
 * promptSnippet and promptGuidelines, and its parameter schema as JSON,
 * counted in characters and in o200k_base tokens (gpt-tokenizer, a real BPE
 * tokenizer of that encoding).
 */

import type { ToolDefinition } from "@mariozechner/pi-coding-agent";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

export interface Footprint {
	chars: number;
	tokens: number;
	parts: { description: number; promptSnippet: number; promptGuidelines: number; parameters: number };
}

const tokens = (text: string): number => (text === "" ? 0 : encode(text).length);

/** The four pieces joined with newlines, counted as one text; the parts counted alone, for the table. */
export function footprintOf(tool: ToolDefinition): Footprint {
	const description = tool.description ?? "";
	const snippet = tool.promptSnippet ?? "";
	const guidelines = (tool.promptGuidelines ?? []).join("\n");
	const parameters = JSON.stringify(tool.parameters);
	const text = [description, snippet, guidelines, parameters].filter((part) => part !== "").join("\n");
	return {
		chars: text.length,
		tokens: tokens(text),
		parts: {
			description: tokens(description),
			promptSnippet: tokens(snippet),
			promptGuidelines: tokens(guidelines),
			parameters: tokens(parameters),
		},
	};
}
