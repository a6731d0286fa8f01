/**
 * A tool, `tool_info`, that reports what pi knows of another tool
 * (`pi.getAllTools()`): its exposure and annotations, as pi 1.x keeps them.
 */

import { Type } from "@sinclair/typebox";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export default function toolInfoExtension(pi: ExtensionAPI): void {
	pi.registerTool({
		name: "tool_info",
		label: "Tool info",
		description: "Test probe: what pi knows of a registered tool.",
		parameters: Type.Object({ name: Type.String() }),
		async execute(_toolCallId, params) {
			const tool = pi.getAllTools().find((candidate) => candidate.name === params.name);
			const info =
				tool === undefined ? null : { exposure: tool.exposure ?? null, annotations: tool.annotations ?? null };
			return { content: [{ type: "text", text: JSON.stringify(info) }], details: info };
		},
	});
}
