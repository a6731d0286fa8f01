import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ATTENTION_MODES } from "../src/attention.ts";
import { LOCALES } from "../src/i18n/locale.ts";
import { ENGLISH, type Phrase } from "../src/i18n/texts.ts";
import {
	LOCALE_PATTERN,
	PEEK_KEY_PATTERN,
	PEEK_KEYS_TAKEN,
	parseSettings,
	projectTrustedByUser,
	readSettings,
	SETTING_RULES,
	settingsFiles,
	settingText,
	splitSteering,
} from "../src/settings.ts";

const schema = JSON.parse(readFileSync(join(import.meta.dirname, "..", "schema", "ask-user.schema.json"), "utf8")) as {
	properties: Record<string, { enum?: unknown[]; pattern?: string; examples?: unknown[]; not?: { enum: string[] } }>;
	additionalProperties: boolean;
};

describe("one file", () => {
	it("takes every known key of the right type", () => {
		const text = JSON.stringify({
			$schema: "./node_modules/pi-ask-user/schema/ask-user.schema.json",
			attention: "desktop",
			remindSeconds: 120,
			timeoutSeconds: 0,
			description: "Ask me.",
			promptSnippet: "Ask.",
			promptGuidelines: ["One.", "Two."],
		});
		expect(parseSettings(text, "a.json")).toEqual({
			settings: { attention: "desktop", remindSeconds: 120, timeoutSeconds: 0, description: "Ask me.", promptSnippet: "Ask.", promptGuidelines: ["One.", "Two."] },
			warnings: [],
		});
	});

	it("an unknown key and a wrong type are each one warning naming the file, the key and the fix; the rest applies", () => {
		const { settings, warnings } = parseSettings(JSON.stringify({ attention: "loud", remindSeconds: 60, colour: "red" }), "/p/.pi/ask-user.json");
		expect(settings).toEqual({ remindSeconds: 60 });
		expect(warnings).toHaveLength(2);
		expect(said(warnings[0])).toContain("/p/.pi/ask-user.json: attention must be one of \"off\", \"bell\", \"desktop\" (found \"loud\"); the default applies");
		expect(said(warnings[1])).toContain('unknown key "colour" is ignored. Known keys: locale, attention');
	});

	it("malformed JSON, or not an object, is one warning and nothing applies", () => {
		for (const text of ['{ "attention": "desktop",', "[1,2]", "null"]) {
			const { settings, warnings } = parseSettings(text, "g.json");
			expect(settings).toEqual({});
			expect(warnings).toHaveLength(1);
			expect(said(warnings[0])).toContain("g.json");
		}
	});

	it("wrong shapes of every key are refused", () => {
		const bad = { attention: 1, remindSeconds: -1, timeoutSeconds: "60", description: "", promptSnippet: 3, promptGuidelines: ["ok", 2] };
		const { settings, warnings } = parseSettings(JSON.stringify(bad), "x.json");
		expect(settings).toEqual({});
		expect(warnings).toHaveLength(Object.keys(bad).length);
	});
});

describe("two files", () => {
	it("the project's file wins key by key; a missing file is no problem", () => {
		const files: Record<string, string> = {
			"/agent/ask-user.json": JSON.stringify({ attention: "desktop", remindSeconds: 30 }),
			"/work/.pi/ask-user.json": JSON.stringify({ attention: "off" }),
		};
		const read = (path: string) => {
			const text = files[path];
			if (text === undefined) throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
			return text;
		};
		expect(settingsFiles("/agent", "/work")).toEqual(["/agent/ask-user.json", "/work/.pi/ask-user.json"]);
		expect(readSettings(settingsFiles("/agent", "/work"), read)).toEqual({ settings: { attention: "off", remindSeconds: 30 }, warnings: [] });
		expect(readSettings(["/nowhere/ask-user.json"], read)).toEqual({ settings: {}, warnings: [] });
	});

	it("an unreadable file (not just a missing one) is a warning", () => {
		const read = () => {
			throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
		};
		expect(said(readSettings(["/a/ask-user.json"], read).warnings[0])).toContain("/a/ask-user.json could not be read");
	});
});

describe("the JSON Schema shipped for editors", () => {
	it("names exactly the keys the reader knows, closed to others, with the same attention values", () => {
		expect(Object.keys(schema.properties).filter((key) => key !== "$schema").sort()).toEqual(Object.keys(SETTING_RULES).sort());
		expect(schema.additionalProperties).toBe(false);
		expect(schema.properties["attention"]?.enum).toEqual([...ATTENTION_MODES]);
	});

	it("completes every shipped locale, and accepts a locale and a peek key only where the reader does", () => {
		expect(schema.properties["locale"]?.examples).toEqual([...LOCALES]);
		const accepts = (key: string, value: string) => {
			const property = schema.properties[key];
			return new RegExp(property?.pattern ?? "").test(value) && !(property?.not?.enum ?? []).includes(value);
		};
		expect(schema.properties["locale"]?.pattern).toBe(LOCALE_PATTERN.source);
		expect(schema.properties["peekKey"]?.pattern).toBe(PEEK_KEY_PATTERN.source);
		expect(schema.properties["peekKey"]?.not?.enum).toEqual([...PEEK_KEYS_TAKEN]);
		const locales = [...LOCALES, "fr-CA", "zh_TW.UTF-8", "pt_PT", "de_DE@euro", "C", "C.UTF-8", "POSIX", "nl", "xx-YY", "", "english", "FR", " fr", "en-"];
		for (const value of locales) expect(accepts("locale", value), value).toBe(SETTING_RULES.locale.read(value) !== undefined);
		const keys = ["p", "q", "x", "n", "j", "c", "ctrl+o", "alt+p", "ctrl+c", "ctrl+i", "f2", "f12", "f13", "P", "enter", "shift+p", ""];
		for (const value of keys) expect(accepts("peekKey", value), value).toBe(SETTING_RULES.peekKey.read(value) !== undefined);
	});
});

describe("the locale and the peek key", () => {
	it("a locale of a shipped language is taken as given; another is one warning that lists the locales", () => {
		expect(parseSettings(JSON.stringify({ locale: "fr-CA" }), "f.json").settings).toEqual({ locale: "fr-CA" });
		const { settings, warnings } = parseSettings(JSON.stringify({ locale: "tlh" }), "f.json");
		expect(settings).toEqual({});
		expect(said(warnings[0])).toContain('f.json: locale must be one of "en", "zh-CN", "zh-TW", "ja", "ko", "es", "fr", "de", "pt-BR", "ru" (found "tlh")');
	});

	it("a peek key the form already uses is refused with what it takes", () => {
		expect(parseSettings(JSON.stringify({ peekKey: "ctrl+o" }), "f.json").settings).toEqual({ peekKey: "ctrl+o" });
		const { settings, warnings } = parseSettings(JSON.stringify({ peekKey: "n" }), "f.json");
		expect(settings).toEqual({});
		expect(said(warnings[0])).toContain("peekKey must be a letter, ctrl+ or alt+ and a letter, or f1 to f12, that the form does not use already");
	});
});

describe("where a setting comes from", () => {
	const file = { attention: "desktop" as const, remindSeconds: 120, timeoutSeconds: 0 };
	const sources = (flags: Record<string, unknown>, env: Record<string, string>) => ({ flag: (name: string) => flags[name], env, file });

	it("a flag wins over its variable, the variable over the file, the file over the default", () => {
		expect(settingText(sources({ "ask-user-attention": "off" }, { PI_ASK_USER_ATTENTION: "bell" }), "ask-user-attention", "PI_ASK_USER_ATTENTION", "attention")).toBe("off");
		expect(settingText(sources({}, { PI_ASK_USER_ATTENTION: "bell" }), "ask-user-attention", "PI_ASK_USER_ATTENTION", "attention")).toBe("bell");
		expect(settingText(sources({}, {}), "ask-user-attention", "PI_ASK_USER_ATTENTION", "attention")).toBe("desktop");
		expect(settingText(sources({}, {}), "ask-user-remind", "PI_ASK_USER_REMIND", "remindSeconds")).toBe("120");
	});

	it("an empty flag or variable gives nothing, so the file still applies; 0 in the file is none", () => {
		expect(settingText(sources({ "ask-user-attention": "" }, { PI_ASK_USER_ATTENTION: "" }), "ask-user-attention", "PI_ASK_USER_ATTENTION", "attention")).toBe("desktop");
		expect(settingText(sources({}, {}), "ask-user-timeout", "PI_ASK_USER_TIMEOUT", "timeoutSeconds")).toBeUndefined();
	});

	it("seconds in the file are 0 or from 1 on: half a second is refused with the file's own fix", () => {
		const { settings, warnings } = parseSettings(JSON.stringify({ remindSeconds: 0.5 }), "f.json");
		expect(settings).toEqual({});
		expect(said(warnings[0])).toContain("remindSeconds must be 0 (none) or a number of seconds from 1");
	});
});

function said(phrase: Phrase | undefined): string | undefined {
	return phrase && ENGLISH.say(phrase);
}

describe("a project's steering texts and the user's trust", () => {
	const cwd = "/work/project";
	const has = (...entries: string[]) => (path: string) => entries.some((entry) => path === `${cwd}/.pi/${entry}`);

	it("apply only where pi says the project is trusted and pi had something to ask about", () => {
		expect(projectTrustedByUser(cwd, () => true, has("settings.json", "ask-user.json"))).toBe(true);
		expect(projectTrustedByUser(cwd, () => true, has("extensions"))).toBe(true);
		// pi reports a folder with nothing of pi's to trust as trusted: nobody decided.
		expect(projectTrustedByUser(cwd, () => true, has("ask-user.json"))).toBe(false);
		expect(projectTrustedByUser(cwd, () => false, has("settings.json", "ask-user.json"))).toBe(false);
		// A pi without a trust API (0.73) never trusts a project's steering.
		expect(projectTrustedByUser(cwd, undefined, has("settings.json"))).toBe(false);
	});

	it("the steering keys are split from the rest of a file's settings", () => {
		expect(splitSteering({ attention: "desktop", description: "D", promptGuidelines: ["G"] })).toEqual({
			steering: { description: "D", promptGuidelines: ["G"] },
			rest: { attention: "desktop" },
		});
	});
});

