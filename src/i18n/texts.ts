/**
 * A locale's words: `t(key, values)` fills a catalogue message (en.ts), plurals by Intl.PluralRules, lists by
 * Intl.ListFormat; a missing key falls back to English.
 */

import { type Catalogue, EN, type Message, type MessageKey } from "./en.ts";
import type { Locale } from "./locale.ts";
import type { ParamValue, Params, Phrase, Texts } from "./phrase.ts";

export type { Texts } from "./phrase.ts";

const PLACEHOLDER = /\{(\w+)\}/g;

export function createTexts(locale: Locale, catalogue: Partial<Catalogue> = {}): Texts {
	// Made on first use: ICU's list data alone takes milliseconds to load, and start-up only needs English to exist.
	let plurals: Intl.PluralRules | undefined;
	let lists: Intl.ListFormat | undefined;
	const fill = (template: string, params: Params | undefined): string =>
		params === undefined
			? template
			: template.replace(PLACEHOLDER, (whole, name: string) => valueText(params[name]) ?? whole);
	const valueText = (value: ParamValue | undefined): string | undefined => {
		if (value === undefined || typeof value === "string") return value;
		if (typeof value === "number") return String(value);
		return isPhrase(value)
			? words(value.key, value.params)
			: (lists ??= new Intl.ListFormat(locale, { type: "conjunction" })).format(value);
	};
	const pick = (message: Message, count: ParamValue | undefined): string => {
		if (typeof message === "string") return message;
		const n = typeof count === "number" ? count : Number.NaN;
		return (
			(Number.isFinite(n) ? message[(plurals ??= new Intl.PluralRules(locale)).select(n)] : undefined) ?? message.other
		);
	};
	// A key no catalogue has (a status read back from a newer session file) is shown as itself, never thrown on.
	function words(key: MessageKey, params?: Params): string {
		const message: Message | undefined = catalogue[key] ?? EN[key];
		return message === undefined ? String(key) : fill(pick(message, params?.["count"]), params);
	}
	return { locale, t: (key, ...args) => words(key, args[0] as Params | undefined), say: (p) => words(p.key, p.params) };
}

// Array.isArray does not narrow a readonly array away.
const isPhrase = (value: Phrase | readonly string[]): value is Phrase => !Array.isArray(value);

/** The default, and what every other locale falls back to. */
export const ENGLISH: Texts = createTexts("en", EN);
