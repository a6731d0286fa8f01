/** What is said: a phrase and how one is made, a message's values, and a locale's words (their types). */

import type { EN, MessageKey } from "./en.ts";
import type { Locale } from "./locale.ts";

/** A list of strings is joined ("A, B, and C"); a phrase is said in place. */
export type ParamValue = string | number | readonly string[] | Phrase;
export type Params = Readonly<Record<string, ParamValue>>;

/**
 * Something to say, not yet in words: the state machine and the settings reader speak in phrases, so they stay free of
 * any language (i18n/texts.ts says them).
 */
export type Phrase = { readonly key: MessageKey; readonly params?: Params };

/** The English text of a message (its `other` form): where its placeholders are read from. */
type EnglishText<K extends MessageKey> = (typeof EN)[K] extends string
	? (typeof EN)[K]
	: (typeof EN)[K] extends { other: infer O extends string }
		? O
		: never;
type Holes<S extends string> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | Holes<Rest> : never;
/** A message's values: exactly its placeholders, each one required. */
export type ArgsOf<K extends MessageKey> = [Holes<EnglishText<K>>] extends [never]
	? []
	: [params: { readonly [N in Holes<EnglishText<K>>]: ParamValue }];

export interface Texts {
	readonly locale: Locale;
	/** tsc checks the values against the English message's placeholders. */
	readonly t: <K extends MessageKey>(key: K, ...args: ArgsOf<K>) => string;
	readonly say: (phrase: Phrase) => string;
}

/** A phrase of `key`, its values checked against the English message's placeholders. */
export function phrase<K extends MessageKey>(key: K, ...args: ArgsOf<K>): Phrase {
	const [params] = args as [Params?];
	return params === undefined ? { key } : { key, params };
}
