/**
 * The settings file, `ask-user.json`: global in pi's agent directory
 * (~/.pi/agent/ask-user.json) and per project in `.pi/ask-user.json`; the
 * project's file wins key by key. Flags and environment variables win over
 * both (index.ts). `schema/ask-user.schema.json` describes the same keys for
 * editors; a test holds the two together.
 *
 * Bad settings never break pi: malformed JSON, an unknown key, a wrong type —
 * each is a warning that names the file, the key and the fix, and the default
 * applies to that key; everything else in the file still applies.
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { KeyId } from "@mariozechner/pi-tui";
import { ATTENTION_MODES, type AttentionMode } from "./attention.ts";
import { type Phrase, phrase } from "./i18n/texts.ts";
import { LOCALES, matchLocale } from "./i18n/locale.ts";
import { isObject, own } from "./json.ts";

export const SETTINGS_FILE = "ask-user.json";

export interface AskUserSettings {
	attention?: AttentionMode;
	remindSeconds?: number;
	timeoutSeconds?: number;
	/** RPC hosts: offer no text rows in the dialog walker (an ACP adapter shows no text dialogs). */
	choiceOnly?: boolean;
	/** Replaces the tool's description (what the model reads about ask_user). */
	description?: string;
	/** Replaces the one-line snippet in pi's tool list. */
	promptSnippet?: string;
	/** Replaces the guidelines pi adds to the system prompt. */
	promptGuidelines?: string[];
	/** What a number key does on the form: choose that option (default), or only focus it. */
	numberKeys?: NumberKeys;
	/** The language of the form and the rest of what the user reads (not the model): one of LOCALES, or a tag of its language. */
	locale?: string;
	/** The key that folds the form to one line and back (peek); default p. */
	peekKey?: KeyId;
}

/**
 * What the peekKey setting accepts: a letter, ctrl or alt with a letter, or
 * F1–F12 — none that the form (or pi, inside it) already reads, and no ctrl
 * letter a terminal sends as another key (ctrl+i is Tab, ctrl+m Enter, ctrl+j
 * a new line, ctrl+h Backspace). test/form/key-table.test.ts holds this rule
 * to the form's key table.
 */
export function isFreePeekKey(key: string): key is KeyId {
	return PEEK_KEY_PATTERN.test(key) && !PEEK_KEYS_TAKEN.includes(key);
}

/** The shape of a peek key; the schema's `pattern` is the same. */
export const PEEK_KEY_PATTERN = /^([a-z]|(ctrl|alt)\+[a-z]|f([1-9]|1[0-2]))$/;

/**
 * A locale as the settings file takes it: a shipped language, with any
 * region, script or encoding after it ("fr-CA", "zh_TW.UTF-8"), or C/POSIX;
 * the schema's `pattern` is the same.
 */
export const LOCALE_PATTERN = new RegExp(`^(C|POSIX|(${[...new Set(LOCALES.map((tag) => tag.split("-")[0]))].join("|")})([-_][A-Za-z0-9]{1,8})*)([.@].*)?$`);

/** The keys of that shape the form reads already, or a terminal sends as another key; the schema's `not` lists the same. */
export const PEEK_KEYS_TAKEN: readonly string[] = ["j", "k", "n", "s", "c", "ctrl+c", "ctrl+i", "ctrl+m", "ctrl+j", "ctrl+h"];

export const NUMBER_KEYS = ["choose", "focus"] as const;
export type NumberKeys = (typeof NUMBER_KEYS)[number];

type Key = keyof AskUserSettings;

interface KeyRule {
	/** The value, or undefined when it is not of this key's type. */
	read(value: unknown): unknown;
	/** What the key takes, for the warning: "one of off, bell, desktop". */
	takes: Phrase;
}

const text = (max: number): KeyRule => ({
	read: (value) => (typeof value === "string" && value.trim() !== "" && value.length <= max ? value : undefined),
	takes: phrase("takes.text", { max }),
});
const seconds = (max: number): KeyRule => ({
	read: (value) => (typeof value === "number" && Number.isFinite(value) && (value === 0 || (value >= 1 && value <= max)) ? value : undefined),
	takes: phrase("takes.seconds", { max }),
});
const oneOf = (values: readonly string[], accepts: (value: string) => boolean = (value) => values.includes(value)): KeyRule => ({
	read: (value) => (typeof value === "string" && accepts(value) ? value : undefined),
	takes: phrase("takes.oneOf", { values: values.map((value) => JSON.stringify(value)).join(", ") }),
});

export const SETTING_RULES: Readonly<Record<Key, KeyRule>> = {
	locale: oneOf(LOCALES, (value) => LOCALE_PATTERN.test(value) && matchLocale(value) !== undefined),
	attention: oneOf(ATTENTION_MODES),
	numberKeys: oneOf(NUMBER_KEYS),
	peekKey: {
		read: (value) => (typeof value === "string" && isFreePeekKey(value) ? value : undefined),
		takes: phrase("takes.peekKey", { taken: PEEK_KEYS_TAKEN.join(", ") }),
	},
	remindSeconds: seconds(86_400),
	choiceOnly: { read: (value) => (typeof value === "boolean" ? value : undefined), takes: phrase("takes.boolean") },
	timeoutSeconds: seconds(2_147_483),
	description: text(4_000),
	promptSnippet: text(1_000),
	promptGuidelines: {
		read: (value) =>
			Array.isArray(value) && value.length <= 20 && value.every((line) => typeof line === "string" && line.trim() !== "" && line.length <= 1_000)
				? [...(value as string[])]
				: undefined,
		takes: phrase("takes.lines", { max: 20 }),
	},
};

/** Keys an editor adds that mean nothing here. */
const IGNORED = new Set(["$schema"]);

export interface SettingsReading {
	settings: AskUserSettings;
	/** In no language yet: the locale is itself a setting, so they are put in words once it is known. */
	warnings: Phrase[];
}

/** One file's text → its settings and a warning per problem. `file` names it in the warnings. */
export function parseSettings(text: string, file: string): SettingsReading {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		return { settings: {}, warnings: [phrase("warning.settingsNotJson", { file, reason: why })] };
	}
	if (!isObject(value)) {
		return { settings: {}, warnings: [phrase("warning.settingsNotObject", { file, example: '{ "attention": "desktop", … }' })] };
	}
	const settings: Record<string, unknown> = {};
	const warnings: Phrase[] = [];
	for (const key of Object.keys(value)) {
		if (IGNORED.has(key)) continue;
		const rule = (SETTING_RULES as Record<string, KeyRule | undefined>)[key];
		if (!rule) {
			warnings.push(phrase("warning.settingsUnknownKey", { file, key: JSON.stringify(key), keys: Object.keys(SETTING_RULES).join(", ") }));
			continue;
		}
		const read = rule.read(own(value, key));
		if (read === undefined) {
			warnings.push(phrase("warning.settingsBadValue", { file, key, takes: rule.takes, found: JSON.stringify(own(value, key)) ?? "undefined" }));
			continue;
		}
		settings[key] = read;
	}
	return { settings: settings as AskUserSettings, warnings };
}

/** The settings that go into the model's prompt: a project's file sets them only where the user trusted the project. */
export const STEERING_KEYS = ["description", "promptSnippet", "promptGuidelines"] as const;
export type Steering = Pick<AskUserSettings, (typeof STEERING_KEYS)[number]>;

/** `settings` split into its steering texts and the rest. */
export function splitSteering(settings: AskUserSettings): { steering: Steering; rest: AskUserSettings } {
	const steering: Record<string, unknown> = {};
	const rest: Record<string, unknown> = { ...settings };
	for (const key of STEERING_KEYS) {
		if (rest[key] === undefined) continue;
		steering[key] = rest[key];
		delete rest[key];
	}
	return { steering: steering as Steering, rest: rest as AskUserSettings };
}

/**
 * What in a project's `.pi/` makes pi 1.x ask the user to trust it (its
 * trust manager's list). pi reports a folder holding none of them as
 * trusted without asking anyone, so only where one exists is
 * `isProjectTrusted()` a decision the user made.
 */
const TRUST_GATED = ["settings.json", "mcp.json", "extensions", "skills", "prompts", "themes", "SYSTEM.md", "APPEND_SYSTEM.md"];

/**
 * Whether the user trusted the project in `cwd`: pi says so (1.x), and pi had
 * something to ask about. A pi without a trust API (0.73) never has.
 */
export function projectTrustedByUser(cwd: string, isProjectTrusted: (() => boolean) | undefined, exists: (path: string) => boolean = existsSync): boolean {
	if (typeof isProjectTrusted !== "function") return false;
	return isProjectTrusted() && TRUST_GATED.some((entry) => exists(join(cwd, ".pi", entry)));
}

/** Where the files are: the global one first, the project's second (it wins). */
export function settingsFiles(agentDir: string, cwd: string): string[] {
	return [join(agentDir, SETTINGS_FILE), join(cwd, ".pi", SETTINGS_FILE)];
}

/** Reads and merges the files; a missing file is no problem, an unreadable one is a warning. */
export function readSettings(files: readonly string[], read: (path: string) => string = (path) => readFileSync(path, "utf8")): SettingsReading {
	const merged: AskUserSettings = {};
	const warnings: Phrase[] = [];
	for (const file of files) {
		let text: string;
		try {
			text = read(file);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
				warnings.push(phrase("warning.settingsUnreadable", { file, reason: (error as Error).message }));
			}
			continue;
		}
		const parsed = parseSettings(text, file);
		Object.assign(merged, parsed.settings);
		warnings.push(...parsed.warnings);
	}
	return { settings: merged, warnings };
}

/** Where a setting can be given besides the files: a flag (pi.getFlag) and an environment variable. */
export interface SettingSources {
	flag(name: string): unknown;
	env: Readonly<Record<string, string | undefined>>;
	file: AskUserSettings;
}

/**
 * Each runtime setting as the text its parser takes: the flag wins over the
 * variable, the variable over the files; undefined when none gives it.
 */
export function settingText(
	sources: SettingSources,
	flag: string,
	variable: string,
	key: "attention" | "remindSeconds" | "timeoutSeconds" | "choiceOnly",
): string | undefined {
	// An empty flag or variable (`PI_ASK_USER_ATTENTION=` from a wrapper) gives nothing: the file still applies.
	const given = [sources.flag(flag), sources.env[variable]].find((value) => value !== undefined && value !== "");
	if (given !== undefined) return String(given);
	const fromFile = sources.file[key];
	// 0 (or false) in the file means "none", as an absent key does.
	return fromFile === undefined || fromFile === 0 || fromFile === false ? undefined : String(fromFile);
}
