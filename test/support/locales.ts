/** Every shipped catalogue as Texts, for tests that run under every locale. */

import type { Catalogue } from "../../src/i18n/en.ts";
import { EN } from "../../src/i18n/en.ts";
import { LOCALES, type Locale } from "../../src/i18n/locale.ts";
import { CATALOGUE as de } from "../../src/i18n/locales/de.ts";
import { CATALOGUE as es } from "../../src/i18n/locales/es.ts";
import { CATALOGUE as fr } from "../../src/i18n/locales/fr.ts";
import { CATALOGUE as ja } from "../../src/i18n/locales/ja.ts";
import { CATALOGUE as ko } from "../../src/i18n/locales/ko.ts";
import { CATALOGUE as ptBR } from "../../src/i18n/locales/pt-BR.ts";
import { CATALOGUE as ru } from "../../src/i18n/locales/ru.ts";
import { CATALOGUE as zhCN } from "../../src/i18n/locales/zh-CN.ts";
import { CATALOGUE as zhTW } from "../../src/i18n/locales/zh-TW.ts";
import { createTexts, type Texts } from "../../src/i18n/texts.ts";

export const CATALOGUES: Readonly<Record<Locale, Catalogue>> = {
	en: EN,
	"zh-CN": zhCN,
	"zh-TW": zhTW,
	ja,
	ko,
	es,
	fr,
	de,
	"pt-BR": ptBR,
	ru,
};

export const EVERY_LOCALE: readonly [Locale, Texts][] = LOCALES.map((locale) => [
	locale,
	createTexts(locale, CATALOGUES[locale]),
]);

export function textsFor(locale: Locale): Texts {
	return createTexts(locale, CATALOGUES[locale]);
}
