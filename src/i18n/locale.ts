/**
 * Which shipped locale a tag names, and the environment's; a tag we do not ship falls back to its language ("fr-CA" →
 * fr, "zh-HK" → zh-TW), then English.
 */

export const LOCALES = ["en", "zh-CN", "zh-TW", "ja", "ko", "es", "fr", "de", "pt-BR", "ru"] as const;
export type Locale = (typeof LOCALES)[number];

/** Chinese in traditional script: Taiwan, Hong Kong, Macau, or a script subtag that says so. */
const TRADITIONAL = /^(tw|hk|mo|hant)$/;

/**
 * A POSIX locale name ("zh_CN.UTF-8", "de_DE@euro") or a BCP 47 tag ("zh-Hant-TW"); undefined: a language we do not
 * ship.
 */
export function matchLocale(tag: string): Locale | undefined {
	const name = tag.trim().replace(/[.@].*$/, "");
	if (name === "C" || name === "POSIX") return "en";
	const [language, ...rest] = name
		.toLowerCase()
		.split(/[-_]/)
		.filter((part) => part !== "");
	if (language === undefined || !/^[a-z]{2,3}$/.test(language)) return undefined;
	if (language === "zh") return rest.some((part) => TRADITIONAL.test(part)) ? "zh-TW" : "zh-CN";
	if (language === "pt") return "pt-BR";
	return LOCALES.find((locale) => locale === language);
}

/**
 * As POSIX reads it: LC_ALL, LC_MESSAGES, then LANG (empty is unset); the first one set decides even for a language we
 * do not ship (then English, not a lower variable).
 */
export function environmentLocale(env: Readonly<Record<string, string | undefined>>): Locale {
	for (const name of ["LC_ALL", "LC_MESSAGES", "LANG"]) {
		const value = env[name];
		if (value !== undefined && value !== "") return matchLocale(value) ?? "en";
	}
	return "en";
}
