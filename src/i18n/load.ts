/**
 * The catalogues load one at a time, when a session starts: only English is
 * part of start-up, and only the locale the user reads is ever loaded.
 */

import type { Catalogue } from "./en.ts";
import type { Locale } from "./locale.ts";
import { createTexts, ENGLISH, type Texts } from "./texts.ts";

type Loader = () => Promise<{ CATALOGUE: Catalogue }>;

const LOADERS: Record<Exclude<Locale, "en">, Loader> = {
	"zh-CN": () => import("./locales/zh-CN.ts"),
	"zh-TW": () => import("./locales/zh-TW.ts"),
	ja: () => import("./locales/ja.ts"),
	ko: () => import("./locales/ko.ts"),
	es: () => import("./locales/es.ts"),
	fr: () => import("./locales/fr.ts"),
	de: () => import("./locales/de.ts"),
	"pt-BR": () => import("./locales/pt-BR.ts"),
	ru: () => import("./locales/ru.ts"),
};

/** The locale's words; English when it is English, or when its catalogue cannot be loaded (`onError` hears why). */
export async function loadTexts(locale: Locale, onError?: (error: unknown) => void): Promise<Texts> {
	if (locale === "en") return ENGLISH;
	try {
		return createTexts(locale, (await LOADERS[locale]()).CATALOGUE);
	} catch (error) {
		onError?.(error);
		return ENGLISH;
	}
}
