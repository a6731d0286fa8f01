/**
 * A one-dialog tool, `probe_select`, that proves the harness without ask_user:
 * it shows a `select` and returns what was chosen (or "cancelled", or "no UI").
 */

import { Type } from "@sinclair/typebox";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export default function probeExtension(pi: ExtensionAPI): void {
	pi.registerTool({
		name: "probe_select",
		label: "Probe",
		description: "Test probe: shows one select dialog and returns the choice.",
		parameters: Type.Object({
			title: Type.String(),
			options: Type.Array(Type.String()),
		}),
		async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
			const text = ctx.hasUI
				? ((await ctx.ui.select(String(params.title), params.options ?? [])) ?? "cancelled")
				: "no UI";
			return { content: [{ type: "text", text: `probe chose: ${text}` }], details: { choice: text } };
		},
	});
}
