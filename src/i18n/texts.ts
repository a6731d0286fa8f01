/**
 * A locale's words, ready to say: `t(key, params)` fills a catalogue message
 * (en.ts) — the plural form for `{count}` chosen by Intl.PluralRules, a list
 * joined by Intl.ListFormat — and falls back to English for a key a
 * catalogue lacks. Pure: a catalogue in, strings out.
 */

import { type Catalogue, EN, type Message, type MessageKey } from "./en.ts";

export type { MessageKey } from "./en.ts";

/** What a placeholder takes: a number, a string, strings to join as a list ("A, B and C"), or a phrase to say in place. */
export type ParamValue = string | number | readonly string[] | Phrase;
export type Params = Readonly<Record<string, ParamValue>>;

/**
 * Something to say, not yet in words: a key and its values. The state
 * machine and the settings reader speak in phrases, so they stay free of
 * any language; the views put them into the user's.
 */
export interface Phrase {
	readonly key: MessageKey;
	readonly params?: Params;
}

export function phrase(key: MessageKey, params?: Params): Phrase {
	return params === undefined ? { key } : { key, params };
}

export interface Texts {
	/** The BCP 47 tag of the catalogue: "en", "zh-CN", "pt-BR". */
	readonly locale: string;
	t(key: MessageKey, params?: Params): string;
	/** A phrase in words. */
	say(phrase: Phrase): string;
}

const PLACEHOLDER = /\{(\w+)\}/g;

export function createTexts(locale: string, catalogue: Partial<Catalogue> = {}): Texts {
	// Made on first use: ICU's list data alone takes milliseconds to load, and start-up only needs English to exist.
	let plurals: Intl.PluralRules | undefined;
	let lists: Intl.ListFormat | undefined;
	const fill = (template: string, params: Params | undefined): string =>
		params === undefined ? template : template.replace(PLACEHOLDER, (whole, name: string) => valueText(params[name]) ?? whole);
	const valueText = (value: ParamValue | undefined): string | undefined => {
		if (value === undefined || typeof value === "string") return value;
		if (typeof value === "number") return String(value);
		return isPhrase(value) ? t(value.key, value.params) : (lists ??= new Intl.ListFormat(locale, { type: "conjunction" })).format(value);
	};
	const pick = (message: Message, count: ParamValue | undefined): string => {
		if (typeof message === "string") return message;
		const n = typeof count === "number" ? count : Number.NaN;
		return (Number.isFinite(n) ? message[(plurals ??= new Intl.PluralRules(locale)).select(n)] : undefined) ?? message.other;
	};
	function t(key: MessageKey, params?: Params): string {
		return fill(pick(catalogue[key] ?? EN[key], params?.["count"]), params);
	}
	return { locale, t, say: (p) => t(p.key, p.params) };
}

function isPhrase(value: Phrase | readonly string[]): value is Phrase {
	return !Array.isArray(value);
}

/** The English words: the default, and what every other locale falls back to. */
export const ENGLISH: Texts = createTexts("en", EN);
