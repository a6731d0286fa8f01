/**
 * The catalogues: every locale has every message of the English one, with
 * the same placeholders and plural forms for its own plural rules, and no
 * English left in it; the words are filled in as the locale writes them; the
 * locale is chosen from the setting, then the environment.
 */

import { describe, expect, it } from "vitest";
import { EN, type Message, type MessageKey } from "../src/i18n/en.ts";
import { loadTexts } from "../src/i18n/load.ts";
import { environmentLocale, LOCALES, matchLocale } from "../src/i18n/locale.ts";
import { createTexts, ENGLISH } from "../src/i18n/texts.ts";
import { CATALOGUES, textsFor } from "./support/locales.ts";
import { settingsFrom } from "./support/settings.ts";
import { phrase } from "../src/core/types.ts";

const KEYS = Object.keys(EN) as MessageKey[];
const OTHERS = LOCALES.filter((locale) => locale !== "en");

function forms(message: Message): string[] {
	return typeof message === "string" ? [message] : Object.values(message);
}

function placeholders(text: string): string[] {
	return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? "").sort();
}

/** The plural categories a count of questions, drafts or characters can take in the locale. */
function categoriesInUse(locale: string): Set<Intl.LDMLPluralRule> {
	const rules = new Intl.PluralRules(locale);
	const used = new Set<Intl.LDMLPluralRule>();
	for (let n = 0; n <= 10_000; n++) used.add(rules.select(n));
	return used;
}

/** Words only English has; what a translator left untranslated shows up as one of them. */
const ENGLISH_WORDS =
	/\b(the|your|you|with|this|that|again|press|would|been|should|which|while|from|none|every|must|only|unsaved|submit|answers?|dismiss|skip(ped)?|drafts?|review|choose|write|keys?|waiting|asked|missing|ready)\b/i;

/** What stays as it is in every language: placeholders, flags, variables, a command, setting values, what `ps` calls a process id. */
function withoutVerbatim(text: string): string {
	return text
		.replace(/\{\w+\}/g, " ")
		.replace(/--[\w-]+( (desktop|\d+|ja))?/g, " ")
		.replace(
			/export EDITOR=vim|\$\w+|npm install|uqr|tailnet|JavaScript|ask_user|numberKeys|focus|JSON|PID|true|false|ctrl\+|alt\+|f1|f12|\/trust|\.pi\/settings\.json/g,
			" ",
		);
}

const NON_LATIN = new Set<string>(["zh-CN", "zh-TW", "ja", "ko", "ru"]);

/** The same word in English and in the language ("question" and "note" in French, "optional" in German). */
const SAME_AS_ENGLISH: Partial<Record<string, readonly MessageKey[]>> = {
	fr: ["form.questionCount", "key.tabs.hint", "key.note.hint", "transcript.noteMark", "attention.title"],
	de: ["walker.optional", "form.optional", "help.join"],
	es: ["help.join"],
	"pt-BR": ["help.join"],
	ru: ["help.join"],
};

describe.each(OTHERS)("the %s catalogue", (locale) => {
	const catalogue = CATALOGUES[locale];

	it("has every message of the English one and no other", () => {
		expect(Object.keys(catalogue).sort()).toEqual([...KEYS].sort());
	});

	it("has the same placeholders as English in every form, and plural forms where English has them", () => {
		const used = categoriesInUse(locale);
		for (const key of KEYS) {
			const english = EN[key];
			const message = catalogue[key] as Message;
			const wanted = placeholders(typeof english === "string" ? english : english.other);
			expect(typeof message, key).toBe(typeof english);
			for (const form of forms(message)) expect(placeholders(form), `${key}: ${form}`).toEqual(wanted);
			if (typeof message !== "string") {
				for (const category of used)
					expect(message[category], `${key} needs a "${category}" form in ${locale}`).toBeDefined();
			}
		}
	});

	it("leaves no English in the chrome", () => {
		const same = SAME_AS_ENGLISH[locale] ?? [];
		for (const key of KEYS) {
			const message = catalogue[key] as Message;
			if (!same.includes(key)) expect(JSON.stringify(message), key).not.toBe(JSON.stringify(EN[key]));
			for (const form of forms(message)) {
				expect(withoutVerbatim(form), `${key}: ${form}`).not.toMatch(ENGLISH_WORDS);
				// In a language not written in Latin letters, any Latin word is left over.
				if (NON_LATIN.has(locale)) expect(withoutVerbatim(form), `${key}: ${form}`).not.toMatch(/[A-Za-z]{3,}/);
			}
		}
	});

	it("keeps each message's leading symbol (✎ 💬 ⏱ ↑ ↓ ❓ ⓘ ⚠ ✓ ✗ → ← ↷)", () => {
		for (const key of KEYS) {
			const lead = /^[✎💬⏱↑↓❓ⓘ⚠✓✗→←↷]/u.exec(forms(EN[key])[0] ?? "")?.[0];
			if (lead)
				for (const form of forms(catalogue[key] as Message))
					expect(form.startsWith(lead), `${key}: ${form}`).toBe(true);
		}
	});

	it("is what loadTexts gives for the locale", async () => {
		const texts = await loadTexts(locale);
		expect(texts.locale).toBe(locale);
		expect(texts.t("review.title")).toBe(catalogue["review.title"]);
	});
});

describe("the English catalogue", () => {
	it("gives every plural message the forms English uses, each with its count", () => {
		for (const key of KEYS) {
			const message = EN[key] as Message;
			if (typeof message === "string") continue;
			expect(Object.keys(message).sort(), key).toEqual(["one", "other"]);
			for (const form of forms(message)) expect(form, key).toContain("{count}");
		}
	});

	it("the English texts are the catalogue's", async () => {
		expect(await loadTexts("en")).toBe(ENGLISH);
	});
});

describe("filling in a message", () => {
	it("picks the plural form by the locale's rules", () => {
		const ru = textsFor("ru");
		const said = [1, 2, 5, 21, 22, 25, 111].map((count) => ru.t("form.questionCount", { count }));
		const { one, few, many } = CATALOGUES.ru["form.questionCount"] as { one: string; few: string; many: string };
		expect(said).toEqual(
			[one, few, many, one, few, many, many].map((form, i) =>
				form.replace("{count}", String([1, 2, 5, 21, 22, 25, 111][i])),
			),
		);
		expect(ENGLISH.t("form.questionCount", { count: 1 })).toBe("1 question");
		expect(ENGLISH.t("form.questionCount", { count: 0 })).toBe("0 questions");
		expect(textsFor("ja").t("form.questionCount", { count: 3 })).toContain("3");
	});

	it("joins a list the locale's way", () => {
		expect(ENGLISH.t("problem.answerFirst", { names: ["Scope", "Targets", "Style"] })).toBe(
			"Answer Scope, Targets, and Style first",
		);
		expect(textsFor("zh-CN").t("problem.answerFirst", { names: ["甲", "乙", "丙"] })).toContain("甲、乙和丙");
		expect(textsFor("de").t("problem.answerFirst", { names: ["A", "B"] })).toContain("A und B");
	});

	it("says a phrase given as a value in the same language, and leaves braces in the user's text alone", () => {
		const ja = textsFor("ja");
		const takes = phrase("takes.boolean");
		expect(ja.t("warning.settingsBadValue", { source: "f", takes, found: "1" })).toContain(ja.t("takes.boolean"));
		expect(ENGLISH.t("form.askedBy", { asker: "{count} {asker}" })).toBe("Asked by {count} {asker}");
	});

	it("falls back to English for a message a catalogue lacks, and to `other` for a missing plural form", () => {
		const partial = createTexts("ru", { "form.questionCount": { other: "{count} вопроса" } });
		expect(partial.t("review.title")).toBe("Review your answers");
		expect(partial.t("form.questionCount", { count: 5 })).toBe("5 вопроса");
	});
});

describe("choosing the locale", () => {
	it("matches POSIX names and BCP 47 tags to a shipped locale, by language when the region is not shipped", () => {
		const cases: [string, string | undefined][] = [
			["zh_CN.UTF-8", "zh-CN"],
			["zh_TW.UTF-8", "zh-TW"],
			["zh_HK", "zh-TW"],
			["zh-Hant", "zh-TW"],
			["zh-Hans-SG", "zh-CN"],
			["zh", "zh-CN"],
			["ja_JP.eucJP", "ja"],
			["ko-KR", "ko"],
			["pt_PT", "pt-BR"],
			["pt-BR", "pt-BR"],
			["fr_CA.UTF-8", "fr"],
			["de_DE@euro", "de"],
			["es-419", "es"],
			["ru_RU.KOI8-R", "ru"],
			["en_GB.UTF-8", "en"],
			["C", "en"],
			["POSIX", "en"],
			["C.UTF-8", "en"],
			["nl_NL.UTF-8", undefined],
			["klingon", undefined],
			["", undefined],
		];
		for (const [tag, locale] of cases) expect(matchLocale(tag), tag).toBe(locale);
		for (const locale of LOCALES) expect(matchLocale(locale)).toBe(locale);
	});

	it("reads LC_ALL, then LC_MESSAGES, then LANG; the first one set decides, an unshipped language is English", () => {
		expect(environmentLocale({ LC_ALL: "ja_JP.UTF-8", LC_MESSAGES: "de_DE", LANG: "fr_FR" })).toBe("ja");
		expect(environmentLocale({ LC_ALL: "", LC_MESSAGES: "de_DE", LANG: "fr_FR" })).toBe("de");
		expect(environmentLocale({ LANG: "zh_CN.UTF-8" })).toBe("zh-CN");
		expect(environmentLocale({ LC_ALL: "nl_NL", LANG: "fr_FR" })).toBe("en");
		expect(environmentLocale({})).toBe("en");
	});

	it("the first setting that names a shipped language wins over the environment; an unknown one is reported and passed over", () => {
		const locale = (
			flag: string | undefined,
			variable: string | undefined,
			file: string | undefined,
			env: Record<string, string>,
		) => {
			const { settings, warnings } = settingsFrom({
				flags: { "ask-user-locale": flag },
				env: { ...env, ...(variable !== undefined && { PI_ASK_USER_LOCALE: variable }) },
				global: file && { locale: file },
			});
			return {
				locale: settings.locale,
				unknown: warnings.map((warning) => ENGLISH.say(warning).split(" must be ")[0]),
			};
		};
		expect(locale(undefined, undefined, "ja", { LANG: "zh_CN.UTF-8" })).toEqual({ locale: "ja", unknown: [] });
		expect(locale("de", "fr", "ja", { LANG: "zh_CN.UTF-8" })).toEqual({ locale: "de", unknown: [] });
		expect(locale(undefined, undefined, undefined, { LANG: "zh_CN.UTF-8" })).toEqual({ locale: "zh-CN", unknown: [] });
		expect(locale("  ", "", undefined, { LANG: "ko_KR" })).toEqual({ locale: "ko", unknown: [] });
		expect(locale(undefined, "xx", "ja", { LANG: "ru_RU" })).toEqual({
			locale: "ja",
			unknown: ["ask_user settings: PI_ASK_USER_LOCALE"],
		});
		expect(locale("tlh", "xx", undefined, { LANG: "ru_RU" })).toEqual({
			locale: "ru",
			unknown: ["ask_user settings: --ask-user-locale", "ask_user settings: PI_ASK_USER_LOCALE"],
		});
		expect(locale("FR", undefined, undefined, {})).toEqual({ locale: "fr", unknown: [] });
	});
});
