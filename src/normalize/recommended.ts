/**
 * "(Recommended)" written into the text instead of `recommended: true`: on a
 * label (prefix or suffix), at the end of a description, or as the whole
 * description, in English and in the other languages models answer in.
 */

import { LIMITS } from "../types.ts";

const WORD =
	"(?:recommended|recommend|recomendad[oa]|recommandée?|empfohlen|consigliat[oa]|aanbevolen|zalecane|önerilen|" +
	"рекомендуется|рекомендовано|推荐|推薦|建议|推奨|おすすめ|권장|추천)";
const OPEN = "[(\\[（【]";
const CLOSE = "[)\\]）】]";
const BRACKETED = `${OPEN}\\s{0,3}${WORD}\\s{0,3}${CLOSE}`;

// Bounded whitespace keeps every pattern linear on a text of any length.
const PREFIX = new RegExp(`^(?:${BRACKETED}|${WORD}\\s{0,3}[:：])\\s{0,3}(?:[-–—:]\\s{0,3})?`, "iu");
const SUFFIX = new RegExp(`\\s{0,3}(?:[-–—:]\\s{0,3})?${BRACKETED}[.。]?$|\\s{1,3}[-–—]\\s{0,3}${WORD}$`, "iu");
/** "Simple and fast. Recommended." — a closing sentence that is only the word. */
const CLOSING_SENTENCE = new RegExp(`([.。!])\\s{1,3}${WORD}[.。!]?$`, "iu");
/** A description that says nothing but "Recommended". */
const WHOLE = new RegExp(`^(?:${BRACKETED}|${WORD})[.。!]?$`, "iu");

const MARKED_TEXT_MAX = 4 * LIMITS.description;

function stripMarkers(text: string, patterns: readonly RegExp[]): string {
	let cleaned = text;
	// Until nothing changes, so "(Recommended) [Recommended] X" comes out clean and a
	// second normalisation of the result changes nothing. Every round shortens the text.
	for (;;) {
		let next = cleaned;
		for (const pattern of patterns) next = next.replace(pattern, "").trim();
		if (next === cleaned || next.length === 0) return cleaned;
		cleaned = next;
	}
}

/**
 * The label without its "(Recommended)" / "[Recommended]" / "Recommended:"
 * prefix or "(Recommended)" / "- Recommended" suffix; undefined when it has
 * none, or when nothing but the marker would be left.
 */
export function withoutRecommendedMarker(label: string): string | undefined {
	const text = label.trim();
	// A label this long fails validation whatever it is marked with; don't spend rounds on it.
	if (text.length > 4 * LIMITS.label) return undefined;
	const cleaned = stripMarkers(text, [PREFIX, SUFFIX]);
	return cleaned === text ? undefined : cleaned;
}

/**
 * The description without a marker at its start or end ("…; fast (Recommended)",
 * "Recommended: …", "Fast. Recommended."): `""` when the description was only
 * the marker, undefined when it carries none.
 */
export function descriptionWithoutMarker(description: string): string | undefined {
	const text = description.trim();
	if (text.length > MARKED_TEXT_MAX) return undefined;
	if (WHOLE.test(text)) return "";
	const cleaned = stripMarkers(text, [PREFIX, SUFFIX]).replace(CLOSING_SENTENCE, "$1");
	return cleaned === text ? undefined : cleaned;
}
