/** The countdown at the head of the hint line, in the user's language. */

import { ENGLISH, type Texts } from "../i18n/texts.ts";

/** "⏱ 4:32 left", "⏱ 0:05 left": whole seconds, rounded up, never below zero. */
export function formatTimeLeft(ms: number, texts: Texts = ENGLISH): string {
	const seconds = Math.max(0, Math.ceil(ms / 1000));
	const minutes = Math.floor(seconds / 60);
	const hours = Math.floor(minutes / 60);
	const ss = String(seconds % 60).padStart(2, "0");
	const time = hours > 0 ? `${hours}:${String(minutes % 60).padStart(2, "0")}:${ss}` : `${minutes}:${ss}`;
	return texts.t("form.timeLeft", { time });
}
