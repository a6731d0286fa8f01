import { hasTrustRequiringProjectResources } from "@mariozechner/pi-coding-agent";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Phrase } from "../src/core/types.ts";
import { ATTENTION_MODES } from "../src/settings/table.ts";
import { LOCALES } from "../src/i18n/locale.ts";
import { ENGLISH } from "../src/i18n/texts.ts";
import { projectTrustedByUser, readSettingsFiles } from "../src/settings/read.ts";
import { FLAGS, registerSettingFlags } from "../src/settings/flags.ts";
import { SETTINGS } from "../src/settings/table.ts";
import {
	PROJECT_FILE,
	README_TABLE_END,
	README_TABLE_START,
	settingsFrom,
	settingsReadmeTable,
	settingsSchemaText,
} from "./support/settings.ts";

const root = join(import.meta.dirname, "..");
const schemaPath = join(root, "schema", "ask-user.schema.json");
const schema = JSON.parse(readFileSync(schemaPath, "utf8")) as {
	properties: Record<string, { enum?: unknown[]; pattern?: string; examples?: unknown[]; not?: { enum: string[] } }>;
	additionalProperties: boolean;
};
const DEFAULTS = settingsFrom().settings;

function said(phrases: readonly Phrase[]): string[] {
	return phrases.map((phrase) => ENGLISH.say(phrase));
}

describe("one file", () => {
	it("takes every known key of the right type, as typed values", () => {
		const global = {
			$schema: "./node_modules/pi-ask-user/schema/ask-user.schema.json",
			attention: "desktop",
			remindSeconds: 120,
			timeoutSeconds: 0,
			numberKeys: "focus",
			choiceOnly: true,
			description: "Ask me.",
			promptSnippet: "Ask.",
			promptGuidelines: ["One.", "Two."],
		};
		expect(settingsFrom({ global })).toEqual({
			settings: {
				...DEFAULTS,
				attention: "desktop",
				reminderMs: 120_000,
				timeoutMs: undefined,
				numberKeys: "focus",
				choiceOnly: true,
				description: "Ask me.",
				promptSnippet: "Ask.",
				promptGuidelines: ["One.", "Two."],
			},
			warnings: [],
			projectSteering: false,
			given: expect.anything(),
		});
		// What the file gave, told apart from the defaults (choiceOnly: false, set, stops the walker learning it).
		expect([...settingsFrom({ global }).given].sort()).toEqual([
			"attention",
			"choiceOnly",
			"description",
			"numberKeys",
			"promptGuidelines",
			"promptSnippet",
			"reminderMs",
			"timeoutMs",
		]);
		expect(settingsFrom({ global: { choiceOnly: false } }).given).toEqual(["choiceOnly"]);
		expect(settingsFrom({ global: { choiceOnly: "yes" } }).given).toEqual([]);
	});

	it("an unknown key and a wrong type are each one warning naming the file, the key and the fix; the rest applies", () => {
		const { settings, warnings } = settingsFrom({ project: { attention: "loud", remindSeconds: 60, colour: "red" } });
		expect(settings).toEqual({ ...DEFAULTS, reminderMs: 60_000 });
		expect(warnings).toHaveLength(2);
		expect(said(warnings)[0]).toBe(
			`ask_user settings: ${PROJECT_FILE}: attention must be one of "off", "bell", "desktop" (found "loud"); it is ignored.`,
		);
		expect(said(warnings)[1]).toContain('unknown key "colour" is ignored. Known keys: locale, attention');
	});

	it("malformed JSON, or not an object, is one warning and nothing applies", () => {
		for (const text of ['{ "attention": "desktop",', "[1,2]", "null"]) {
			const { settings, warnings } = settingsFrom({ global: text });
			expect(settings).toEqual(DEFAULTS);
			expect(warnings).toHaveLength(1);
			expect(said(warnings)[0]).toContain("/agent/ask-user.json");
		}
	});

	it("wrong shapes of every key are refused", () => {
		const bad = {
			locale: 1,
			attention: 1,
			remindSeconds: -1,
			timeoutSeconds: "60",
			numberKeys: "all",
			youDecide: "no",
			peekKey: "P",
			choiceOnly: "yes",
			web: "on",
			webAddress: "localhost",
			webPort: 1.5,
			description: "",
			promptSnippet: 3,
			promptGuidelines: ["ok", 2],
		};
		expect(Object.keys(bad).sort()).toEqual(
			Object.values(SETTINGS)
				.map(({ key }) => key)
				.sort(),
		);
		const { settings, warnings } = settingsFrom({ global: bad });
		expect(settings).toEqual(DEFAULTS);
		expect(warnings).toHaveLength(Object.keys(bad).length);
	});
});

describe("two files", () => {
	it("the project's file wins key by key; a missing file is no problem", () => {
		const global = { attention: "desktop", remindSeconds: 30, timeoutSeconds: 60 };
		// No limit (0) ends no form: it needs no trust (a limit does, below).
		expect(settingsFrom({ global, project: { attention: "off", timeoutSeconds: 0 } })).toEqual({
			settings: { ...DEFAULTS, attention: "off", reminderMs: 30_000, timeoutMs: undefined },
			warnings: [],
			projectSteering: false,
			given: ["attention", "reminderMs", "timeoutMs"],
		});
		expect(settingsFrom()).toEqual({ settings: DEFAULTS, warnings: [], projectSteering: false, given: [] });
	});

	it("the browser page's settings come from your own file, never a project's (one warning names them)", () => {
		const mine = { web: true, webAddress: "192.168.1.20", webPort: 8765 };
		expect(settingsFrom({ global: mine }).settings).toMatchObject({
			web: true,
			webAddress: "192.168.1.20",
			webPort: 8765,
		});
		const { settings, warnings } = settingsFrom({
			project: { web: true, webAddress: "192.168.1.20", attention: "off" },
		});
		expect(settings).toMatchObject({ web: false, webAddress: "127.0.0.1", webPort: 0, attention: "off" });
		expect(said(warnings)).toEqual([
			expect.stringContaining("sets web, webAddress, which open this machine to the network"),
		]);
		expect(settingsFrom({ global: { webAddress: "example.com", webPort: 70_000 } }).warnings).toHaveLength(2);
		// Every address at once is none a phone could open: refused.
		expect(settingsFrom({ global: { webAddress: "0.0.0.0" } }).settings.webAddress).toBe("127.0.0.1");
	});

	it("a value the project's file gets wrong leaves the global file's", () => {
		const { settings, warnings } = settingsFrom({ global: { attention: "desktop" }, project: { attention: "loud" } });
		expect(settings.attention).toBe("desktop");
		expect(warnings).toHaveLength(1);
	});

	it("an unreadable file (not just a missing one) is a warning", () => {
		const read = () => {
			throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
		};
		const { warnings } = readSettingsFiles("/a", "/w", read);
		expect(said(warnings)).toEqual([
			"ask_user settings: /a/ask-user.json could not be read (EACCES: permission denied): none of it applies.",
			"ask_user settings: /w/.pi/ask-user.json could not be read (EACCES: permission denied): none of it applies.",
		]);
	});
});

describe("the JSON Schema shipped for editors, and README's table", () => {
	it("are what the table writes (npm run schemas writes them)", () => {
		const readmePath = join(root, "README.md");
		const readme = readFileSync(readmePath, "utf8");
		const start = readme.indexOf(README_TABLE_START) + README_TABLE_START.length;
		const end = readme.indexOf(README_TABLE_END);
		expect(start).toBeGreaterThan(README_TABLE_START.length);
		const table = `\n${settingsReadmeTable()}\n`;
		if (process.env["UPDATE_SCHEMAS"] === "1") {
			writeFileSync(schemaPath, settingsSchemaText());
			writeFileSync(readmePath, readme.slice(0, start) + table + readme.slice(end));
		}
		expect(readFileSync(schemaPath, "utf8"), "schema/ask-user.schema.json is stale: run npm run schemas").toBe(
			settingsSchemaText(),
		);
		expect(
			readFileSync(readmePath, "utf8").slice(start, end),
			"README's settings table is stale: run npm run schemas",
		).toBe(table);
	});

	it("name exactly the keys the reader knows, closed to others, with the same attention values", () => {
		const keys = Object.values(SETTINGS).map(({ key }) => key);
		expect(Object.keys(schema.properties).filter((key) => key !== "$schema")).toEqual(keys);
		expect(schema.additionalProperties).toBe(false);
		expect(schema.properties["attention"]?.enum).toEqual([...ATTENTION_MODES]);
		for (const key of keys) expect(readFileSync(join(root, "README.md"), "utf8")).toContain(`| \`${key}\` |`);
	});

	it("completes every shipped locale, and accepts a locale and a peek key only where the reader does", () => {
		expect(schema.properties["locale"]?.examples).toEqual([...LOCALES]);
		const accepts = (key: string, value: string) => {
			const property = schema.properties[key];
			return new RegExp(property?.pattern ?? "").test(value) && !(property?.not?.enum ?? []).includes(value);
		};
		const readerTakes = (key: string, value: string) =>
			settingsFrom({ global: { [key]: value } }).warnings.length === 0;
		const locales = [
			...LOCALES,
			"fr-CA",
			"zh_TW.UTF-8",
			"pt_PT",
			"de_DE@euro",
			"C",
			"C.UTF-8",
			"POSIX",
			"nl",
			"xx-YY",
			"",
			"english",
			"FR",
			" fr",
			"en-",
		];
		for (const value of locales) expect(accepts("locale", value), value).toBe(readerTakes("locale", value));
		const keys = [
			"p",
			"q",
			"x",
			"n",
			"j",
			"c",
			"ctrl+o",
			"alt+p",
			"ctrl+c",
			"ctrl+i",
			"f2",
			"f12",
			"f13",
			"P",
			"enter",
			"shift+p",
			"",
		];
		for (const value of keys) expect(accepts("peekKey", value), value).toBe(readerTakes("peekKey", value));
	});
});

describe("the flags", () => {
	it("every row with a flag registers it, with its help; choiceOnly is a switch", () => {
		const registered: [string, { description?: string; type: string }][] = [];
		registerSettingFlags({ registerFlag: (name, options) => registered.push([name, options]) });
		expect(registered.map(([name]) => name)).toEqual([
			"ask-user-locale",
			"ask-user-attention",
			"ask-user-remind",
			"ask-user-timeout",
			"ask-user-choice-only",
			"ask-user-web",
			"ask-user-web-address",
			"ask-user-web-port",
		]);
		expect(registered.find(([name]) => name === "ask-user-choice-only")?.[1].type).toBe("boolean");
		expect(registered.find(([name]) => name === "ask-user-timeout")?.[1]).toEqual({
			description: SETTINGS.timeoutMs.help,
			type: "string",
		});
	});

	it("a flag is a switch exactly where its setting is a yes or no, and says the setting's help", () => {
		for (const [name, flag] of Object.entries(FLAGS)) {
			const setting = SETTINGS[name as keyof typeof FLAGS];
			expect({ name, flag: setting.flag, help: setting.help }).toEqual({ name, flag: flag.flag, help: flag.help });
			expect({ name, boolean: "boolean" in flag }).toEqual({ name, boolean: typeof setting.default === "boolean" });
		}
	});
});

describe("the locale and the peek key", () => {
	it("a locale of a shipped language is taken as its language; another is one warning that lists the locales, and the environment's applies", () => {
		expect(settingsFrom({ global: { locale: "fr-CA" } }).settings.locale).toBe("fr");
		const { settings, warnings } = settingsFrom({ global: { locale: "tlh" }, env: { LANG: "ja_JP.UTF-8" } });
		expect(settings.locale).toBe("ja");
		expect(said(warnings)[0]).toContain(
			'/agent/ask-user.json: locale must be one of "en", "zh-CN", "zh-TW", "ja", "ko", "es", "fr", "de", "pt-BR", "ru" (found "tlh")',
		);
	});

	it("a peek key the form already uses is refused with what it takes", () => {
		expect(settingsFrom({ global: { peekKey: "ctrl+o" } }).settings.peekKey).toBe("ctrl+o");
		const { settings, warnings } = settingsFrom({ global: { peekKey: "n" } });
		expect(settings.peekKey).toBe("p");
		expect(said(warnings)[0]).toContain(
			"peekKey must be a letter, ctrl+ or alt+ and a letter, or f1 to f12, that the form does not use already",
		);
	});
});

describe("where a setting comes from", () => {
	const global = { attention: "desktop", remindSeconds: 120, timeoutSeconds: 0 };

	it("a flag wins over its variable, the variable over the file, the file over the default", () => {
		expect(
			settingsFrom({ global, flags: { "ask-user-attention": "off" }, env: { PI_ASK_USER_ATTENTION: "bell" } }).settings
				.attention,
		).toBe("off");
		expect(settingsFrom({ global, env: { PI_ASK_USER_ATTENTION: "bell" } }).settings.attention).toBe("bell");
		expect(settingsFrom({ global }).settings.attention).toBe("desktop");
		expect(settingsFrom({ global }).settings.reminderMs).toBe(120_000);
		expect(settingsFrom().settings.attention).toBe("bell");
	});

	it("an empty flag or variable gives nothing, so the file still applies; 0 in the file is none", () => {
		const empty = settingsFrom({
			global,
			flags: { "ask-user-attention": "" },
			env: { PI_ASK_USER_ATTENTION: "", PI_ASK_USER_REMIND: " " },
		});
		expect(empty.settings.attention).toBe("desktop");
		expect(empty.settings.reminderMs).toBe(120_000);
		expect(empty.warnings).toEqual([]);
		expect(settingsFrom({ global }).settings.timeoutMs).toBeUndefined();
		expect(settingsFrom({ global, project: { remindSeconds: 0 } }).settings.reminderMs).toBeUndefined();
	});

	it("a bad flag or variable is one warning naming it and what it takes, and the next source applies", () => {
		const { settings, warnings } = settingsFrom({
			global,
			flags: { "ask-user-attention": "loud" },
			env: { PI_ASK_USER_ATTENTION: "Desktop", PI_ASK_USER_REMIND: "soon" },
		});
		expect(settings.attention).toBe("desktop");
		expect(settings.reminderMs).toBe(120_000);
		expect(said(warnings)).toEqual([
			'ask_user settings: --ask-user-attention must be one of "off", "bell", "desktop" (found "loud"); it is ignored.',
			'ask_user settings: PI_ASK_USER_REMIND must be 0 (none) or a number of seconds from 1 to 86400 (found "soon"); it is ignored.',
		]);
		expect(settingsFrom({ env: { PI_ASK_USER_ATTENTION: "loud" } }).settings.attention).toBe("bell");
	});

	it("seconds in the file are 0 or from 1 on: half a second is refused with the file's own fix", () => {
		const { settings, warnings } = settingsFrom({ global: { remindSeconds: 0.5 } });
		expect(settings.reminderMs).toBeUndefined();
		expect(said(warnings)[0]).toContain("remindSeconds must be 0 (none) or a number of seconds from 1");
	});
});

describe("each setting given as text", () => {
	const fromVariable = (variable: string, value: string) => settingsFrom({ env: { [variable]: value } });

	it("attention: off, bell, desktop, in any case; the bell by default; anything else named in a warning", () => {
		expect(fromVariable("PI_ASK_USER_ATTENTION", "Desktop").settings.attention).toBe("desktop");
		expect(fromVariable("PI_ASK_USER_ATTENTION", "off").settings.attention).toBe("off");
		const bad = settingsFrom({ flags: { "ask-user-attention": "loud" } });
		expect(bad.settings.attention).toBe("bell");
		expect(said(bad.warnings)[0]).toContain('"loud"');
		expect(said(bad.warnings)[0]).toContain("--ask-user-attention");
	});

	it("reminder: seconds from 1 to a day, in ms; none by default or at 0; anything else named in a warning", () => {
		expect(DEFAULTS.reminderMs).toBeUndefined();
		expect(fromVariable("PI_ASK_USER_REMIND", "0")).toEqual({
			settings: DEFAULTS,
			warnings: [],
			projectSteering: false,
			given: ["reminderMs"],
		});
		expect(fromVariable("PI_ASK_USER_REMIND", "90").settings.reminderMs).toBe(90_000);
		expect(said(settingsFrom({ flags: { "ask-user-remind": "soon" } }).warnings)[0]).toContain("--ask-user-remind");
		expect(fromVariable("PI_ASK_USER_REMIND", "0.5").warnings).toHaveLength(1);
		expect(fromVariable("PI_ASK_USER_REMIND", "86401").warnings).toHaveLength(1);
	});

	it("timeout: seconds in ms, up to the longest a timer can wait; anything else named in a warning, and no limit", () => {
		const timeout = (value: string) => settingsFrom({ flags: { "ask-user-timeout": value } });
		expect(timeout("90").settings.timeoutMs).toBe(90_000);
		expect(timeout("1.5").settings.timeoutMs).toBe(1_500);
		expect(timeout("0")).toEqual({ settings: DEFAULTS, warnings: [], projectSteering: false, given: ["timeoutMs"] });
		// The longest a timer can wait; a longer delay would fire at once.
		expect(timeout("2147483.647").settings.timeoutMs).toBe(2_147_483_647);
		for (const value of ["-3", "soon", "0.5", "3000000", "2147483.648", "Infinity", "true"]) {
			const { settings, warnings } = timeout(value);
			expect(settings.timeoutMs, value).toBeUndefined();
			expect(said(warnings), value).toEqual([
				`ask_user settings: --ask-user-timeout must be 0 (none) or a number of seconds from 1 to 2147483.647 (found ${JSON.stringify(value)}); it is ignored.`,
			]);
		}
	});

	it("choice-only: the flag is a switch; a variable says 1/true/yes/on or 0/false/no/off; anything else named in a warning", () => {
		expect(DEFAULTS.choiceOnly).toBe(false);
		expect(settingsFrom({ flags: { "ask-user-choice-only": true } }).settings.choiceOnly).toBe(true);
		for (const yes of ["1", "true", "Yes", "on"])
			expect(fromVariable("PI_ASK_USER_CHOICE_ONLY", yes).settings.choiceOnly, yes).toBe(true);
		expect(
			settingsFrom({ global: { choiceOnly: true }, env: { PI_ASK_USER_CHOICE_ONLY: "0" } }).settings.choiceOnly,
		).toBe(false);
		const bad = settingsFrom({ global: { choiceOnly: true }, env: { PI_ASK_USER_CHOICE_ONLY: "maybe" } });
		expect(bad.settings.choiceOnly).toBe(true);
		// A value refused is not given: the default applies, and the walker still learns.
		expect(fromVariable("PI_ASK_USER_CHOICE_ONLY", "maybe").given).toEqual([]);
		expect(said(bad.warnings)).toEqual([
			'ask_user settings: PI_ASK_USER_CHOICE_ONLY must be true or false (found "maybe"); it is ignored.',
		]);
	});

	it("You decide is on by default; a file or the variable turns it off (no flag: pi's switches only say true)", () => {
		expect(DEFAULTS.youDecide).toBe(true);
		expect(settingsFrom({ global: { youDecide: false } }).settings.youDecide).toBe(false);
		expect(fromVariable("PI_ASK_USER_YOU_DECIDE", "0").settings.youDecide).toBe(false);
		expect(SETTINGS.youDecide).not.toHaveProperty("flag");
	});
});

describe("a project's steering texts and the user's trust", () => {
	const cwd = "/work/project";
	const has =
		(...entries: string[]) =>
		(path: string) =>
			entries.some((entry) => path === `${cwd}/.pi/${entry}`);

	it("apply only where pi says the project is trusted and pi had something to ask about", () => {
		expect(projectTrustedByUser(cwd, () => true, undefined, has("settings.json", "ask-user.json"))).toBe(true);
		expect(projectTrustedByUser(cwd, () => true, undefined, has("extensions"))).toBe(true);
		// pi reports a folder with nothing of pi's to trust as trusted: nobody decided.
		expect(projectTrustedByUser(cwd, () => true, undefined, has("ask-user.json"))).toBe(false);
		expect(projectTrustedByUser(cwd, () => false, undefined, has("settings.json", "ask-user.json"))).toBe(false);
		// A pi without a trust API (0.73) never trusts a project's steering.
		expect(projectTrustedByUser(cwd, undefined, undefined, has("settings.json"))).toBe(false);
	});

	it("what pi asks trust for is pi's own test where it has one: pi 1.6's counts .agents/skills in a folder above", () => {
		const dir = mkdtempSync(join(tmpdir(), "ask-user-trust-"));
		try {
			const project = join(dir, "repo", "app");
			mkdirSync(join(project, ".pi"), { recursive: true });
			writeFileSync(join(project, ".pi", "ask-user.json"), "{}");
			expect(projectTrustedByUser(project, () => true, hasTrustRequiringProjectResources)).toBe(false);
			mkdirSync(join(dir, "repo", ".agents", "skills"), { recursive: true });
			expect(projectTrustedByUser(project, () => true, hasTrustRequiringProjectResources)).toBe(true);
			// The entries of .pi/ alone do not see it.
			expect(projectTrustedByUser(project, () => true, undefined)).toBe(false);
			expect(projectTrustedByUser(project, () => false, hasTrustRequiringProjectResources)).toBe(false);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	const global = { description: "Global D.", promptSnippet: "Global S." };
	const project = { attention: "desktop", description: "Project D.", promptGuidelines: ["Project G."] };

	it("trusted: the project's steering texts win key by key over the global file's", () => {
		let asked = 0;
		const trusted = () => (asked++, true);
		const { settings, warnings, projectSteering } = settingsFrom({ global, project, trusted });
		expect(settings).toMatchObject({
			attention: "desktop",
			description: "Project D.",
			promptSnippet: "Global S.",
			promptGuidelines: ["Project G."],
		});
		expect(warnings).toEqual([]);
		expect(projectSteering).toBe(true);
		expect(asked).toBe(1);
	});

	it("not trusted: the global file's apply, with one warning that names the project's keys; the rest of the project's file applies", () => {
		const { settings, warnings, projectSteering } = settingsFrom({ global, project, trusted: () => false });
		expect(settings).toMatchObject({
			attention: "desktop",
			description: "Global D.",
			promptSnippet: "Global S.",
			promptGuidelines: undefined,
		});
		expect(projectSteering).toBe(false);
		expect(said(warnings)).toHaveLength(1);
		expect(said(warnings)[0]).toContain(
			`${PROJECT_FILE} sets description, promptGuidelines, which go into the model's prompt`,
		);
	});

	it("a project's timeout, which lets a form end unanswered, needs the same trust: untrusted, the user's own applies, with its own warning", () => {
		const timeout = { attention: "off", timeoutSeconds: 1 };
		expect(
			settingsFrom({ global: { timeoutSeconds: 600 }, project: timeout, trusted: () => true }).settings.timeoutMs,
		).toBe(1000);
		const untrusted = settingsFrom({ global: { timeoutSeconds: 600 }, project: timeout, trusted: () => false });
		expect(untrusted.settings).toMatchObject({ timeoutMs: 600_000, attention: "off" });
		expect(untrusted.projectSteering).toBe(false);
		expect(said(untrusted.warnings)).toEqual([
			expect.stringContaining(`${PROJECT_FILE} sets timeoutSeconds, which lets a form end before you answer`),
		]);
		expect(settingsFrom({ project: timeout, trusted: () => false })).toMatchObject({
			settings: { timeoutMs: undefined },
			given: ["attention"],
		});
		// Before trust is known, the limit waits, unsaid.
		expect(settingsFrom({ global: { timeoutSeconds: 600 }, project: timeout })).toMatchObject({
			settings: { timeoutMs: 600_000 },
			warnings: [],
		});
		// No limit lets no form end: it applies untrusted, unasked, and says nothing.
		const asked = () => {
			throw new Error("asked");
		};
		expect(
			settingsFrom({ global: { timeoutSeconds: 600 }, project: { timeoutSeconds: 0 }, trusted: asked }),
		).toMatchObject({ settings: { timeoutMs: undefined }, warnings: [] });
		// Trusted for its timeout alone, the project re-registers no steering text.
		expect(settingsFrom({ project: timeout, trusted: () => true }).projectSteering).toBe(false);
	});

	it("before trust can be known (start-up), they wait without a warning; a project without them is never asked about", () => {
		expect(settingsFrom({ global, project })).toMatchObject({
			settings: { description: "Global D." },
			warnings: [],
			projectSteering: false,
		});
		const trusted = () => {
			throw new Error("asked");
		};
		expect(settingsFrom({ global, project: { attention: "off" }, trusted }).settings.description).toBe("Global D.");
	});
});
