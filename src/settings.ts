/**
 * The settings, one table, from which the flags are registered, the values read, and the JSON Schema and README's table written
 * (`npm run schemas`). A setting comes from its flag, variable, the project's file, the global one, else its default; a bad one is a warning, the next source applies.
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isIP } from "node:net";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { KeyId } from "@mariozechner/pi-tui";
import { environmentLocale, LOCALES, type Locale, matchLocale } from "./i18n/locale.ts";
import { isObject, own } from "./json.ts";
import { ATTENTION_MODES, errorText, type NumberKeys, type Phrase, phrase } from "./types.ts";

type Env = Readonly<Record<string, string | undefined>>;
/** What a rule makes of a value: `{ value }`, or undefined when the key does not take it. */
type Read<T> = { value: T } | undefined;

interface Rule<T> {
	/** A value from a file. */
	json(value: unknown): Read<T>;
	/** A value from a flag or a variable (trimmed, never empty); default: `json` of the text. */
	text?(value: string): Read<T>;
	/** What the key takes, for the warning ("one of off, bell, desktop") and the JSON Schema. */
	takes: Phrase;
	schema: Readonly<Record<string, unknown>>;
}

/** A letter, ctrl or alt with a letter, or F1–F12: none the form reads, no ctrl letter a terminal sends as another key (ctrl+i: Tab). */
export const isFreePeekKey = (key: string): key is KeyId =>
	PEEK_KEY_PATTERN.test(key) && !PEEK_KEYS_TAKEN.includes(key);

const PEEK_KEY_PATTERN = /^([a-z]|(ctrl|alt)\+[a-z]|f([1-9]|1[0-2]))$/;
const PEEK_KEYS_TAKEN: readonly string[] = ["j", "k", "n", "s", "c", "ctrl+c", "ctrl+i", "ctrl+m", "ctrl+j", "ctrl+h"];

/** A locale as a file takes it: a shipped language, with any region, script or encoding after it ("fr-CA", "zh_TW.UTF-8"), or C/POSIX. */
const LOCALE_PATTERN = new RegExp(
	`^(C|POSIX|(${[...new Set(LOCALES.map((tag) => tag.split("-")[0]))].join("|")})([-_][A-Za-z0-9]{1,8})*)([.@].*)?$`,
);

const NUMBER_KEYS: readonly NumberKeys[] = ["choose", "focus"];

/** The longest delay a timer can wait (2^31 − 1 ms, about 24.8 days); a longer one would fire at once. */
const MAX_TIMEOUT_SECONDS = (2 ** 31 - 1) / 1000;

const given = <T>(value: T): Read<T> => ({ value });

function oneOf<V extends string>(values: readonly V[]): Rule<V> {
	const json = (value: unknown) => ((values as readonly unknown[]).includes(value) ? given(value as V) : undefined);
	const takes = phrase("takes.oneOf", { values: values.map((value) => JSON.stringify(value)).join(", ") });
	return { json, text: (value) => json(value.toLowerCase()), takes, schema: { enum: values } };
}

/** Seconds, in ms; 0 (as an absent key) means none. */
function seconds(max: number): Rule<number | undefined> {
	const json = (value: unknown) => {
		if (value === 0) return given(undefined);
		if (typeof value === "number" && value >= 1 && value <= max) return given(Math.round(value * 1000));
		return undefined;
	};
	const schema = { type: "number", anyOf: [{ const: 0 }, { minimum: 1, maximum: max }] };
	return { json, text: (value) => json(Number(value)), takes: phrase("takes.seconds", { max }), schema };
}

const yesNo: Rule<boolean> = {
	json: (value) => (typeof value === "boolean" ? given(value) : undefined),
	text: (value) => {
		if (/^(1|true|yes|on)$/i.test(value)) return given(true);
		if (/^(0|false|no|off)$/i.test(value)) return given(false);
		return undefined;
	},
	takes: phrase("takes.boolean"),
	schema: { type: "boolean" },
};

const text = (max: number): Rule<string | undefined> => ({
	json: (value) => (typeof value === "string" && value.trim() !== "" && value.length <= max ? given(value) : undefined),
	takes: phrase("takes.text", { max }),
	schema: { type: "string", minLength: 1, maxLength: max },
});

const line = text(1_000);
const lines = (max: number): Rule<string[] | undefined> => ({
	json: (value) =>
		Array.isArray(value) && value.length <= max && value.every((each) => line.json(each))
			? given([...(value as string[])])
			: undefined,
	takes: phrase("takes.lines", { max }),
	schema: { type: "array", maxItems: max, items: line.schema },
});

const address: Rule<string> = {
	// Not 0.0.0.0 or ::: every address at once, and none a phone could open the link on.
	json: (value) =>
		typeof value === "string" && isIP(value) !== 0 && !/^(0\.0\.0\.0|::)$/.test(value) ? given(value) : undefined,
	takes: phrase("takes.address"),
	schema: { type: "string", examples: ["127.0.0.1", "192.168.1.20", "::1"] },
};

const port: Rule<number> = {
	json: (value) =>
		Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65_535
			? given(value as number)
			: undefined,
	text: (value) => port.json(/^\d+$/.test(value) ? Number(value) : Number.NaN),
	takes: phrase("takes.port"),
	schema: { type: "integer", minimum: 0, maximum: 65_535 },
};

const shipped = (tag: string) => {
	const matched = matchLocale(tag);
	return matched && given(matched);
};
const locale: Rule<Locale> = {
	json: (value) => (typeof value === "string" && LOCALE_PATTERN.test(value) ? shipped(value) : undefined),
	text: shipped,
	takes: oneOf(LOCALES).takes,
	schema: { type: "string", examples: LOCALES, pattern: LOCALE_PATTERN.source },
};

const peekKey: Rule<KeyId> = {
	json: (value) => (typeof value === "string" && isFreePeekKey(value) ? given(value) : undefined),
	takes: phrase("takes.peekKey", { taken: PEEK_KEYS_TAKEN.join(", ") }),
	schema: { type: "string", pattern: PEEK_KEY_PATTERN.source, not: { enum: PEEK_KEYS_TAKEN } },
};

export interface Setting<T> {
	/** Its key in ask-user.json. */
	key: string;
	flag?: string;
	variable?: string;
	rule: Rule<T>;
	/** What applies when no source gives it, as a file would say it (the schema's default); none: undefined. */
	default?: string | number | boolean;
	/** …or where the default is the environment's (the locale: LC_ALL, LC_MESSAGES, LANG). */
	otherwise?(env: Env): T;
	/** A text that goes into the model's prompt: a project's file sets it only where the user trusted the project. */
	steering?: true;
	/** Whether this value lets a form end unanswered, the model going on without the user: a project's file, too, sets such a value only where the user trusted the project. */
	needsTrust?(value: T): boolean;
	/** Opens this machine to the network: never from a project's file (only your own file, a flag or a variable). */
	userOnly?: true;
	/** The flag's description and the schema's. */
	help: string;
	/** README's table: what it is, the values it takes, what applies without it. */
	readme: readonly [what: string, values: string, byDefault: string];
}

const row = <T>(setting: Setting<T>) => setting;
const quoted = (values: readonly string[]) => values.map((value) => `\`${value}\``).join(", ");

export const SETTINGS = {
	locale: row({
		key: "locale",
		flag: "ask-user-locale",
		variable: "PI_ASK_USER_LOCALE",
		rule: locale,
		otherwise: environmentLocale,
		help: `The language of ask_user's form and of everything else it shows you (not what the model reads): ${LOCALES.join(", ")}; another region of one of these languages takes that language (fr-CA: fr). Default: from LC_ALL, LC_MESSAGES or LANG, else en.`,
		readme: [
			"the language of the form and of everything else you read",
			`${quoted(LOCALES)} (another region takes its language: \`fr-CA\` is \`fr\`)`,
			"from `LC_ALL`, `LC_MESSAGES` or `LANG`, else `en`",
		],
	}),
	attention: row({
		key: "attention",
		flag: "ask-user-attention",
		variable: "PI_ASK_USER_ATTENTION",
		rule: oneOf(ATTENTION_MODES),
		default: "bell",
		help: "How a waiting ask_user form gets your attention: bell (the default), desktop (a notification through the terminal, and a bell), or off.",
		readme: ["attention when a form waits", quoted(ATTENTION_MODES), "`bell`"],
	}),
	reminderMs: row({
		key: "remindSeconds",
		flag: "ask-user-remind",
		variable: "PI_ASK_USER_REMIND",
		rule: seconds(86_400),
		default: 0,
		help: "Ring again after this many seconds with no key pressed while an ask_user form waits; 0: never (the default).",
		readme: ["reminder after no key pressed", "seconds, 1–86400; `0`: never", "never"],
	}),
	timeoutMs: row({
		key: "timeoutSeconds",
		flag: "ask-user-timeout",
		variable: "PI_ASK_USER_TIMEOUT",
		rule: seconds(MAX_TIMEOUT_SECONDS),
		default: 0,
		needsTrust: (ms) => ms !== undefined,
		help: "Seconds the user has to answer an ask_user form, counted from when it is shown, before it returns timed_out; 0: no limit (the default).",
		readme: ["time to answer", "seconds, 1–2147483 (about 24 days); `0`: no limit", "no limit"],
	}),
	numberKeys: row({
		key: "numberKeys",
		rule: oneOf(NUMBER_KEYS),
		default: "choose",
		help: 'What a number key does on the form: choose that option (toggle it in a multi-select; open the editor on "Type something…"), or only focus it, as Enter then chooses.',
		readme: ["what a number key does on the form", quoted(NUMBER_KEYS), "`choose`"],
	}),
	peekKey: row({
		key: "peekKey",
		rule: peekKey,
		default: "p",
		help: "The key that folds the form to one line, to read the conversation above it, and brings it back (peek): a letter, ctrl+ or alt+ and a letter, or f1 to f12, that the form does not use already.",
		readme: [
			"the key that folds the form (peek)",
			"a letter, `ctrl+` or `alt+` and a letter, or `f1`–`f12`, that the form does not use already",
			"`p`",
		],
	}),
	choiceOnly: row({
		key: "choiceOnly",
		flag: "ask-user-choice-only",
		variable: "PI_ASK_USER_CHOICE_ONLY",
		rule: yesNo,
		default: false,
		help: "RPC hosts that show no text dialogs (an ACP adapter such as pi-acp): the dialog walker offers ask_user's options only, no rows for typed answers or notes. Without it, the walker learns it when a host cancels two text dialogs at once.",
		readme: [
			"RPC host shows no text dialogs (ACP)",
			"`true` / `false` (a variable: `1` / `0`)",
			"`false` (learnt: see [ACP hosts](#acp-hosts-zed-and-others))",
		],
	}),
	web: row({
		key: "web",
		flag: "ask-user-web",
		variable: "PI_ASK_USER_WEB",
		rule: yesNo,
		default: false,
		userOnly: true,
		help: "Also serve a waiting ask_user form as a page to answer in your browser (a phone too): its link shows on the form. Off by default; nothing listens while no form waits.",
		readme: [
			"answer in the browser: a waiting form is also served as a page (see [Answer from a browser](#answer-from-a-browser))",
			"`true` / `false` (a variable: `1` / `0`)",
			"`false`",
		],
	}),
	webAddress: row({
		key: "webAddress",
		flag: "ask-user-web-address",
		variable: "PI_ASK_USER_WEB_ADDRESS",
		rule: address,
		default: "127.0.0.1",
		userOnly: true,
		help: "The address the browser page listens on: 127.0.0.1 (this machine only, the default), or an address of this machine on your LAN or tailnet, for a phone.",
		readme: ["where the browser page listens", "an IP address of this machine", "`127.0.0.1`"],
	}),
	webPort: row({
		key: "webPort",
		flag: "ask-user-web-port",
		variable: "PI_ASK_USER_WEB_PORT",
		rule: port,
		default: 0,
		userOnly: true,
		help: "The port of the browser page; 0: any free port (the default).",
		readme: ["the browser page's port", "0–65535; `0`: any free port", "`0`"],
	}),
	description: row({
		key: "description",
		rule: text(4_000),
		steering: true,
		help: "Replaces the tool description the model reads on every turn.",
		readme: ["the tool's description", "text", "ours (src/tool.ts)"],
	}),
	promptSnippet: row({
		key: "promptSnippet",
		rule: text(1_000),
		steering: true,
		help: "Replaces the one-line entry for ask_user in pi's tool list in the system prompt.",
		readme: ["its line in pi's tool list", "text", "ours"],
	}),
	promptGuidelines: row({
		key: "promptGuidelines",
		rule: lines(20),
		steering: true,
		help: "Replaces the guidelines pi adds to the system prompt for ask_user.",
		readme: ["its guidelines in the system prompt", "list of text", "ours"],
	}),
};

/** Every setting, typed: what the tool, the forms and the start-up read. */
export type Settings = { [K in keyof typeof SETTINGS]: (typeof SETTINGS)[K] extends Setting<infer T> ? T : never };
export type Steering = Pick<Settings, "description" | "promptSnippet" | "promptGuidelines">;

const ROWS = Object.entries(SETTINGS) as [keyof Settings, Setting<unknown>][];

export function registerSettingFlags(pi: Pick<ExtensionAPI, "registerFlag">): void {
	for (const [, { flag, help, rule }] of ROWS)
		if (flag) pi.registerFlag(flag, { description: help, type: rule === yesNo ? "boolean" : "string" });
}

/** One file, read: the values it gives, typed, by file key. */
type SettingsFile = { path: string; project: boolean; values: ReadonlyMap<string, { value: unknown }> };

/** `files`: the project's first, as it wins key by key; `warnings` as phrases: the locale is itself a setting, so they are put into words once it is known. */
export type SettingsFiles = { files: SettingsFile[]; warnings: Phrase[] };

function parseFile(text: string, path: string, project: boolean, warnings: Phrase[]): SettingsFile {
	const values = new Map<string, { value: unknown }>();
	let json: unknown;
	try {
		json = JSON.parse(text);
		if (!isObject(json))
			warnings.push(phrase("warning.settingsNotObject", { file: path, example: '{ "attention": "desktop", … }' }));
	} catch (error) {
		warnings.push(phrase("warning.settingsNotJson", { file: path, reason: errorText(error) }));
	}
	const object = isObject(json) ? json : {};
	// "$schema": what an editor adds, meaning nothing here.
	for (const key of Object.keys(object).filter((key) => key !== "$schema")) {
		const setting = ROWS.find(([, candidate]) => candidate.key === key)?.[1];
		const read = setting?.rule.json(own(object, key));
		if (read) values.set(key, read);
		else if (setting)
			warnings.push(
				phrase("warning.settingsBadValue", {
					source: `${path}: ${key}`,
					takes: setting.rule.takes,
					found: JSON.stringify(own(object, key)) ?? "undefined",
				}),
			);
		else
			warnings.push(
				phrase("warning.settingsUnknownKey", {
					file: path,
					key: JSON.stringify(key),
					keys: ROWS.map(([, { key }]) => key).join(", "),
				}),
			);
	}
	return { path, project, values };
}

/** Reads the global file and the project's, once, at start-up; a missing file is no problem, an unreadable one a warning. */
export function readSettingsFiles(
	agentDir: string,
	cwd: string,
	read: (path: string) => string = (path) => readFileSync(path, "utf8"),
): SettingsFiles {
	const warnings: Phrase[] = [];
	const files: SettingsFile[] = [];
	for (const [path, project] of [
		[join(agentDir, "ask-user.json"), false],
		[join(cwd, ".pi", "ask-user.json"), true],
	] as const) {
		try {
			files.unshift(parseFile(read(path), path, project, warnings));
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ENOENT")
				warnings.push(phrase("warning.settingsUnreadable", { file: path, reason: errorText(error) }));
		}
	}
	return { files, warnings };
}

/** Where else a setting can be given, and what decides a project's steering texts. */
export interface SettingSources {
	/** pi's flags: readable only once pi has parsed them (the first session_start). */
	flag?(name: string): unknown;
	env: Env;
	/** Whether the user trusted the project; asked only where its file sets what needs it. Absent: not known yet, so those wait, unsaid. */
	trusted?(): boolean;
}

export interface SettingsReading {
	settings: Settings;
	/** The files', the project's untrusted steering texts' and timeout's, and one per value a flag or variable gave that its rule refused. */
	warnings: Phrase[];
	/** The project's file sets a steering text, and the user trusted the project: it applies. */
	projectSteering: boolean;
}

/** Every setting from the first source that gives it: flag, variable, project file, global file, default. */
export function resolveSettings(read: SettingsFiles, sources: SettingSources): SettingsReading {
	const warnings = [...read.warnings];
	const project = read.files.find((file) => file.project);
	// What the project's file sets that waits for the user's trust: its steering texts, and a value that ends forms (a timeout; not 0, no limit).
	const gated = (setting: Setting<unknown>) => {
		const given = project?.values.get(setting.key);
		return given !== undefined && (setting.steering === true || setting.needsTrust?.(given.value) === true);
	};
	const keysOf = (which: (setting: Setting<unknown>) => boolean) =>
		ROWS.filter(([, setting]) => which(setting) && gated(setting)).map(([, { key }]) => key);
	const [steering, ending] = [
		keysOf((setting) => setting.steering === true),
		keysOf((setting) => setting.needsTrust !== undefined),
	];
	const trusted = steering.length + ending.length > 0 && (sources.trusted?.() ?? false);
	if (project && !trusted && sources.trusted) {
		if (steering.length > 0)
			warnings.push(phrase("warning.projectSteering", { file: project.path, keys: steering.join(", ") }));
		if (ending.length > 0)
			warnings.push(phrase("warning.projectEnding", { file: project.path, keys: ending.join(", ") }));
	}
	const userOnly = ROWS.filter(([, setting]) => setting.userOnly && project?.values.has(setting.key)).map(
		([, { key }]) => key,
	);
	if (project && userOnly.length > 0)
		warnings.push(phrase("warning.projectUserOnly", { file: project.path, keys: userOnly.join(", ") }));
	const settings: Record<string, unknown> = {};
	for (const [name, setting] of ROWS) {
		const files =
			setting.userOnly || (gated(setting) && !trusted) ? read.files.filter((file) => !file.project) : read.files;
		settings[name] = valueOf(setting, files, sources, warnings);
	}
	return { settings: settings as Settings, warnings, projectSteering: trusted && steering.length > 0 };
}

function valueOf(
	setting: Setting<unknown>,
	files: readonly SettingsFile[],
	sources: SettingSources,
	warnings: Phrase[],
): unknown {
	const given: [string, unknown][] = [];
	if (setting.flag) given.push([`--${setting.flag}`, sources.flag?.(setting.flag)]);
	if (setting.variable) given.push([setting.variable, sources.env[setting.variable]]);
	for (const [source, raw] of given) {
		// An empty flag or variable (`PI_ASK_USER_ATTENTION=` from a wrapper) gives nothing: the files still apply.
		const text = raw === undefined ? "" : String(raw).trim();
		if (text === "") continue;
		const read = setting.rule.text ? setting.rule.text(text) : setting.rule.json(text);
		if (read) return read.value;
		warnings.push(
			phrase("warning.settingsBadValue", { source, takes: setting.rule.takes, found: JSON.stringify(String(raw)) }),
		);
	}
	const read = files.map((file) => file.values.get(setting.key)).find((value) => value !== undefined);
	if (read) return read.value;
	if (setting.otherwise) return setting.otherwise(sources.env);
	return setting.default === undefined ? undefined : setting.rule.json(setting.default)?.value;
}

/** What in a project's `.pi/` makes pi 1.x ask for trust: without any, pi reports it trusted unasked. */
const TRUST_GATED = [
	"settings.json",
	"mcp.json",
	"extensions",
	"skills",
	"prompts",
	"themes",
	"SYSTEM.md",
	"APPEND_SYSTEM.md",
];

/**
 * Whether the user trusted the project in `cwd`: pi 1.x says so, and had something to ask about. `asksAbout`: pi's own
 * test where it exports one (1.6's hasTrustRequiringProjectResources, which also counts `.agents/skills` up the tree);
 * else the entries of `.pi/` that pi 1.x asks about.
 */
export function projectTrustedByUser(
	cwd: string,
	isProjectTrusted: (() => boolean) | undefined,
	asksAbout: ((cwd: string) => boolean) | undefined,
	exists: (path: string) => boolean = existsSync,
): boolean {
	if (typeof isProjectTrusted !== "function" || !isProjectTrusted()) return false;
	return typeof asksAbout === "function"
		? asksAbout(cwd)
		: TRUST_GATED.some((entry) => exists(join(cwd, ".pi", entry)));
}
