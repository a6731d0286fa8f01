/**
 * Which of the shipped locales the user reads: from the settings (flag,
 * variable or file), else the environment's LC_ALL / LC_MESSAGES / LANG,
 * else English. A tag we do not ship falls back to its language ("fr-CA" →
 * fr, "pt-PT" → pt-BR, "zh-HK" → zh-TW), then to English. Pure.
 */

export const LOCALES = ["en", "zh-CN", "zh-TW", "ja", "ko", "es", "fr", "de", "pt-BR", "ru"] as const;
export type Locale = (typeof LOCALES)[number];

/** Chinese in traditional script: Taiwan, Hong Kong, Macau, or a script subtag that says so. */
const TRADITIONAL = /^(tw|hk|mo|hant)$/;

/**
 * The shipped locale for a tag, a POSIX locale name ("zh_CN.UTF-8",
 * "de_DE@euro") or a BCP 47 tag ("pt-BR", "zh-Hant-TW"); undefined when its
 * language is not one we ship. "C" and "POSIX" are English.
 */
export function matchLocale(tag: string): Locale | undefined {
	const name = tag.trim().replace(/[.@].*$/, "");
	if (name === "C" || name === "POSIX") return "en";
	const parts = name.toLowerCase().split(/[-_]/).filter((part) => part !== "");
	const [language, ...rest] = parts;
	if (language === undefined || !/^[a-z]{2,3}$/.test(language)) return undefined;
	if (language === "zh") return rest.some((part) => TRADITIONAL.test(part)) ? "zh-TW" : "zh-CN";
	if (language === "pt") return "pt-BR";
	return LOCALES.find((locale) => locale === language);
}

/**
 * The locale the environment asks for, as a POSIX system reads it: LC_ALL
 * wins, then LC_MESSAGES, then LANG; an empty variable counts as unset. The
 * first one set decides, also when it names a language we do not ship (the
 * user asked for it: English, not a lower variable, is the honest fallback).
 */
export function environmentLocale(env: Readonly<Record<string, string | undefined>>): Locale {
	for (const name of ["LC_ALL", "LC_MESSAGES", "LANG"]) {
		const value = env[name];
		if (value !== undefined && value !== "") return matchLocale(value) ?? "en";
	}
	return "en";
}

/** Where a locale setting was given ("--ask-user-locale", "PI_ASK_USER_LOCALE", a settings file) and what it says. */
export interface LocaleSetting {
	readonly source: string;
	readonly value: string | undefined;
}

export interface LocaleChoice {
	locale: Locale;
	/** Settings that named no shipped language, for a warning each; the next source was used instead. */
	unknown: LocaleSetting[];
}

/**
 * The first setting that names a shipped language, in the order given (the
 * flag, the variable, the file); one not given (undefined or "") is passed
 * over, and so is one that names no shipped language, reported back as
 * `unknown`. None: the environment's locale.
 */
export function chooseLocale(settings: readonly LocaleSetting[], env: Readonly<Record<string, string | undefined>>): LocaleChoice {
	const unknown: LocaleSetting[] = [];
	for (const setting of settings) {
		if (setting.value === undefined || setting.value.trim() === "") continue;
		const matched = matchLocale(setting.value);
		if (matched) return { locale: matched, unknown };
		unknown.push(setting);
	}
	return { locale: environmentLocale(env), unknown };
}
