/**
 * The settings, one table, from which the flags are registered, the values read, and the JSON Schema and README's table
 * written (`npm run schemas`); read.ts reads them.
 */

import { isIP } from "node:net";
import type { KeyId } from "@mariozechner/pi-tui";
import { FLAGS } from "./flags.ts";
import { environmentLocale, LOCALES, type Locale, matchLocale } from "../i18n/locale.ts";
import type { NumberKeys } from "../core/types.ts";
import { type Phrase, phrase } from "../i18n/phrase.ts";

export type Env = Readonly<Record<string, string | undefined>>;
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

/**
 * A letter, ctrl or alt with a letter, or F1–F12: none the form reads, no ctrl letter a terminal sends as another key
 * (ctrl+i: Tab).
 */
export const isFreePeekKey = (key: string): key is KeyId =>
	PEEK_KEY_PATTERN.test(key) && !PEEK_KEYS_TAKEN.includes(key);

const PEEK_KEY_PATTERN = /^([a-z]|(ctrl|alt)\+[a-z]|f([1-9]|1[0-2]))$/;
const PEEK_KEYS_TAKEN: readonly string[] = ["j", "k", "n", "s", "c", "ctrl+c", "ctrl+i", "ctrl+m", "ctrl+j", "ctrl+h"];

/**
 * A locale as a file takes it: a shipped language, with any region, script or encoding after it ("fr-CA",
 * "zh_TW.UTF-8"), or C/POSIX.
 */
const LOCALE_PATTERN = new RegExp(
	`^(C|POSIX|(${[...new Set(LOCALES.map((tag) => tag.split("-")[0]))].join("|")})([-_][A-Za-z0-9]{1,8})*)([.@].*)?$`,
);

/** How a waiting form gets the user's attention (route/attention.ts). */
export const ATTENTION_MODES = ["off", "bell", "desktop"] as const;
export type AttentionMode = (typeof ATTENTION_MODES)[number];

export const NUMBER_KEYS: readonly NumberKeys[] = ["choose", "focus"];

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
		typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 65_535 ? given(value) : undefined,
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
	/** Its key in ask-user.json: the setting's name, unless its row says another. */
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
	/**
	 * Whether this value lets a form end unanswered, the model going on without the user: a project's file, too, sets
	 * such a value only where the user trusted the project.
	 */
	needsTrust?(value: T): boolean;
	/** Opens this machine to the network: never from a project's file (only your own file, a flag or a variable). */
	userOnly?: true;
	/** The flag's description and the schema's. */
	help: string;
}

/** A setting as its row gives it: without a key, its name is its key. */
type Row<T> = Omit<Setting<T>, "key"> & { key?: string };
const row = <T>(setting: Row<T>) => setting;
/** A setting's flag and its help, from flags.ts: one text for the flag and the schema. */
const flagOf = (name: keyof typeof FLAGS) => ({ flag: FLAGS[name].flag, help: FLAGS[name].help });

const keyed = <Rows extends Record<string, { key?: string }>>(rows: Rows) =>
	Object.fromEntries(Object.entries(rows).map(([name, setting]) => [name, { key: name, ...setting }])) as {
		[K in keyof Rows]: Rows[K] & { key: string };
	};

export const SETTINGS = keyed({
	locale: row({
		...flagOf("locale"),
		variable: "PI_ASK_USER_LOCALE",
		rule: locale,
		otherwise: environmentLocale,
	}),
	attention: row({
		...flagOf("attention"),
		variable: "PI_ASK_USER_ATTENTION",
		rule: oneOf(ATTENTION_MODES),
		default: "bell",
	}),
	reminderMs: row({
		...flagOf("reminderMs"),
		key: "remindSeconds",
		variable: "PI_ASK_USER_REMIND",
		rule: seconds(86_400),
		default: 0,
	}),
	timeoutMs: row({
		...flagOf("timeoutMs"),
		key: "timeoutSeconds",
		variable: "PI_ASK_USER_TIMEOUT",
		rule: seconds(MAX_TIMEOUT_SECONDS),
		default: 0,
		needsTrust: (ms) => ms !== undefined,
	}),
	numberKeys: row({
		rule: oneOf(NUMBER_KEYS),
		default: "choose",
		help:
			"What a number key does on the form: choose that option (toggle it in a multi-select; open the editor on " +
			'"Type something…"), or only focus it, as Enter then chooses.',
	}),
	youDecide: row({
		// No flag: pi's switches can only say true, and this one is on by default.
		variable: "PI_ASK_USER_YOU_DECIDE",
		rule: yesNo,
		default: true,
		help:
			'A "You decide" row on every ask_user question, after "Type something…": it leaves the question to the ' +
			"model, which chooses and says which. false: no such row.",
	}),
	peekKey: row({
		rule: peekKey,
		default: "p",
		help:
			"The key that folds the form to one line, to read the conversation above it, and brings it back (peek): a " +
			"letter, ctrl+ or alt+ and a letter, or f1 to f12, that the form does not use already.",
	}),
	choiceOnly: row({
		...flagOf("choiceOnly"),
		variable: "PI_ASK_USER_CHOICE_ONLY",
		rule: yesNo,
		default: false,
	}),
	web: row({
		...flagOf("web"),
		variable: "PI_ASK_USER_WEB",
		rule: yesNo,
		default: false,
		userOnly: true,
	}),
	webAddress: row({
		...flagOf("webAddress"),
		variable: "PI_ASK_USER_WEB_ADDRESS",
		rule: address,
		default: "127.0.0.1",
		userOnly: true,
	}),
	webPort: row({
		...flagOf("webPort"),
		variable: "PI_ASK_USER_WEB_PORT",
		rule: port,
		default: 0,
		userOnly: true,
	}),
	description: row({
		rule: text(4_000),
		steering: true,
		help: "Replaces the tool description the model reads on every turn.",
	}),
	promptSnippet: row({
		rule: text(1_000),
		steering: true,
		help: "Replaces the one-line entry for ask_user in pi's tool list in the system prompt.",
	}),
	promptGuidelines: row({
		rule: lines(20),
		steering: true,
		help: "Replaces the guidelines pi adds to the system prompt for ask_user.",
	}),
});

/** Every setting, typed: what the tool, the forms and the start-up read. */
export type Settings = { [K in keyof typeof SETTINGS]: (typeof SETTINGS)[K] extends Row<infer T> ? T : never };
export type Steering = Pick<Settings, "description" | "promptSnippet" | "promptGuidelines">;

export const ROWS = Object.entries(SETTINGS) as [keyof Settings, Setting<unknown>][];
