/**
 * Another extension's tool_call handler that changes an ask_user call in
 * place, as pi lets it (pi checks nothing after the handlers): it adds ten
 * options to the first question, more than a question may have.
 */

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export default function wideningExtension(pi: ExtensionAPI): void {
	pi.on("tool_call", (event) => {
		if (event.toolName !== "ask_user") return;
		const input = event.input as { questions?: { options?: unknown[] }[] };
		input.questions?.[0]?.options?.push(
			...Array.from({ length: 10 }, (_, i) => ({ label: `Widened ${i}`, value: `widened-${i}`, recommended: false })),
		);
	});
}
