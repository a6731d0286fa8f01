/** The user's catalogue loads when the first session starts (index.ts), English too; no other ever does. */

import type { Catalogue } from "./en.ts";
import type { Locale } from "./locale.ts";
import { createTexts, ENGLISH, type Texts } from "./texts.ts";

const LOADERS: Record<Exclude<Locale, "en">, () => Promise<{ CATALOGUE: Catalogue }>> = {
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

/** English when its catalogue cannot be loaded (`onError` hears why). */
export async function loadTexts(locale: Locale, onError?: (error: unknown) => void): Promise<Texts> {
	if (locale === "en") return ENGLISH;
	try {
		return createTexts(locale, (await LOADERS[locale]()).CATALOGUE);
	} catch (error) {
		onError?.(error);
		return ENGLISH;
	}
}
