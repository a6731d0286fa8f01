/**
 * Cline's and Roo Code's `follow_up` suggestions (`<suggest>` tags in a string, a `{ text, mode }`, an array of those
 * or of strings): each an option.
 */

import { isObject } from "../../core/json.ts";

const SUGGEST = /<suggest\b[^>]{0,100}>([\s\S]*?)<\/suggest\s*>/giu;

function suggestionText(item: unknown): unknown {
	if (typeof item === "string") return item.trim();
	if (!isObject(item)) return item;
	const text = item.text ?? item.suggest ?? item.answer ?? item.label;
	return typeof text === "string" ? text.trim() : item;
}

/**
 * The suggestions as bare labels (the option walk reads strings); else the value as found, for the validator to report.
 */
export function followUpOptions(value: unknown): unknown {
	if (typeof value === "string") {
		const labels = Array.from(value.matchAll(SUGGEST), (match) => (match[1] ?? "").trim());
		return labels.length > 0 ? labels : value;
	}
	if (Array.isArray(value)) return value.map(suggestionText);
	if (isObject(value)) {
		// `{ suggest: [...] }`: the XML's nesting, parsed into an object by some clients.
		const inner = value.suggest;
		return Array.isArray(inner) ? inner.map(suggestionText) : [suggestionText(value)];
	}
	return value;
}
