/**
 * "(Recommended)" written into the text instead of `recommended: true`: around a label, at either end or as all of a
 * description, in models' languages.
 */

import { LIMITS } from "../../core/types.ts";

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

/** Every pattern that finds a marker (the test of STEMS reads them). */
export const MARKER_PATTERNS: readonly RegExp[] = [PREFIX, SUFFIX, CLOSING_SENTENCE, WHOLE];

/**
 * A part of each of WORD's words, lower case, made of letters whose case the patterns fold as toLowerCase does: a text
 * without any of them has no marker, and the patterns (costly to compile, the first time a process runs them) need not
 * run on it.
 */
const STEMS = [
	"recom",
	"empfohlen",
	"igliat",
	"aanbevolen",
	"zalecane",
	"nerilen",
	"рек",
	"推荐",
	"推薦",
	"建议",
	"推奨",
	"おすすめ",
	"권장",
	"추천",
];
export const mayBeMarked = (text: string): boolean => {
	const lower = text.toLowerCase();
	return STEMS.some((stem) => lower.includes(stem));
};

/** Until nothing changes ("(Recommended) [Recommended] X"); nothing but the marker left, the text as it was. */
function stripMarkers(text: string): string {
	let cleaned = text;
	for (;;) {
		const next = cleaned.replace(PREFIX, "").trim().replace(SUFFIX, "").trim();
		if (next === cleaned || next.length === 0) return cleaned;
		cleaned = next;
	}
}

/** Undefined when the label has no marker, or nothing else. */
export function withoutRecommendedMarker(label: string): string | undefined {
	const text = label.trim();
	// A label this long fails validation whatever it is marked with: no rounds spent on it.
	if (text.length > 4 * LIMITS.label || !mayBeMarked(text)) return undefined;
	const cleaned = stripMarkers(text);
	return cleaned === text ? undefined : cleaned;
}

/**
 * "…; fast (Recommended)", "Recommended: …", "Fast. Recommended.": `""` when the description was only the marker,
 * undefined when it has none.
 */
export function descriptionWithoutMarker(description: string): string | undefined {
	const text = description.trim();
	if (text.length > 4 * LIMITS.description || !mayBeMarked(text)) return undefined;
	if (WHOLE.test(text)) return "";
	const cleaned = stripMarkers(text).replace(CLOSING_SENTENCE, "$1");
	return cleaned === text ? undefined : cleaned;
}
