/**
 * Reading the model's raw fields: the canonical name before its aliases; numbers, booleans, arrays and objects sent as
 * text.
 */

import { type JsonObject, own } from "../../core/json.ts";
import { parsePythonLiteral } from "./literal.ts";

export const isFiniteNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** `null` counts as absent: strict-mode callers send null for "not given". */
export function field(record: JsonObject, key: string): unknown {
	const value = own(record, key);
	return value === null ? undefined : value;
}

export function firstPresent(record: JsonObject, ...keys: string[]): { key: string; value: unknown } | undefined {
	for (const key of keys) {
		const value = field(record, key);
		if (value !== undefined) return { key, value };
	}
	return undefined;
}

export function setIfPresent(out: JsonObject, key: string, value: unknown): void {
	if (value !== undefined) out[key] = value;
}

export const numberAsString = (value: unknown): unknown => (isFiniteNumber(value) ? String(value) : value);

export function booleanFromText(value: unknown): unknown {
	if (typeof value !== "string") return value;
	const text = value.trim().toLowerCase();
	if (text === "true") return true;
	if (text === "false") return false;
	return value;
}

/**
 * A JSON array or object sent as text, or one written as a Python literal (models driving Python tools send those);
 * else the value as it was.
 */
export function parseJsonText(value: unknown): unknown {
	if (typeof value !== "string") return value;
	const text = value.trim();
	if (!(text.startsWith("[") || text.startsWith("{"))) return value;
	try {
		const parsed: unknown = JSON.parse(text);
		return typeof parsed === "object" && parsed !== null ? parsed : value;
	} catch {
		return parsePythonLiteral(text) ?? value;
	}
}
