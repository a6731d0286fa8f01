/**
 * The settings table's outputs for the docs — the JSON Schema shipped in
 * schema/ and README's settings table — and a way to read settings from files,
 * flags and variables made up for a test.
 */

import { LOCALES } from "../../src/i18n/locale.ts";
import { readSettingsFiles, resolveSettings, type SettingsReading } from "../../src/settings/read.ts";
import { NUMBER_KEYS, SETTINGS, type Settings } from "../../src/settings/table.ts";
import { ATTENTION_MODES } from "../../src/settings/table.ts";

type Json = Record<string, unknown>;

/** schema/ask-user.schema.json: one property per row, with its rule's schema, its help and its default. */
export function settingsSchemaText(): string {
	const properties: Json = { $schema: { type: "string" } };
	for (const setting of Object.values(SETTINGS)) {
		const flag = setting.flag ? ` Flag --${setting.flag}, variable ${setting.variable}.` : "";
		const where = !setting.flag && setting.variable ? ` Variable ${setting.variable}.` : flag;
		properties[setting.key] = {
			description: setting.help + where,
			...setting.rule.schema,
			...(setting.default !== undefined && { default: setting.default }),
		};
	}
	const schema = {
		$schema: "http://json-schema.org/draft-07/schema#",
		$id: "https://www.npmjs.com/package/pi-ask-user/schema/ask-user.schema.json",
		title: "ask_user settings (ask-user.json)",
		description:
			"Settings of the ask_user tool for pi. Global: ~/.pi/agent/ask-user.json; per project: .pi/ask-user.json (the project wins key by key). Flags and environment variables win over both.",
		type: "object",
		additionalProperties: false,
		properties,
	};
	return `${JSON.stringify(schema, null, "\t")}\n`;
}

export const README_TABLE_START = "<!-- settings table: npm run schemas writes it from src/settings/table.ts -->";
export const README_TABLE_END = "<!-- end of settings table -->";

const quoted = (values: readonly string[]) => values.map((value) => `\`${value}\``).join(", ");

/** README's words for each setting: what it is, the values it takes, what applies without it. */
const README_ROWS: Record<keyof Settings, readonly [what: string, values: string, byDefault: string]> = {
	locale: [
		"the language of the form and of everything else you read",
		`${quoted(LOCALES)} (another region takes its language: \`fr-CA\` is \`fr\`)`,
		"from `LC_ALL`, `LC_MESSAGES` or `LANG`, else `en`",
	],
	attention: ["attention when a form waits", quoted(ATTENTION_MODES), "`bell`"],
	reminderMs: ["reminder after no key pressed", "seconds, 1–86400; `0`: never", "never"],
	timeoutMs: ["time to answer", "seconds, 1–2147483 (about 24 days); `0`: no limit", "no limit"],
	numberKeys: ["what a number key does on the form", quoted(NUMBER_KEYS), "`choose`"],
	youDecide: [
		'a "You decide" row on every question, which leaves it to the model',
		"`true` / `false` (a variable: `1` / `0`)",
		"`true`",
	],
	peekKey: [
		"the key that folds the form (peek)",
		"a letter, `ctrl+` or `alt+` and a letter, or `f1`–`f12`, that the form does not use already",
		"`p`",
	],
	choiceOnly: [
		"RPC host shows no text dialogs (ACP)",
		"`true` / `false` (a variable: `1` / `0`)",
		"unset: learnt (see [ACP hosts](#acp-hosts-zed-and-others)); `false` set: never learnt",
	],
	web: [
		"answer in the browser: a waiting form is also served as a page (see [Answer from a browser](#answer-from-a-browser))",
		"`true` / `false` (a variable: `1` / `0`)",
		"`false`",
	],
	webAddress: ["where the browser page listens", "an IP address of this machine", "`127.0.0.1`"],
	webPort: ["the browser page's port", "0–65535; `0`: any free port", "`0`"],
	description: ["the tool's description", "text", "ours (src/tool/tool.ts)"],
	promptSnippet: ["its line in pi's tool list", "text", "ours"],
	promptGuidelines: ["its guidelines in the system prompt", "list of text", "ours"],
};

/** README's settings table, a row per setting. */
export function settingsReadmeTable(): string {
	const code = (text: string | undefined) => (text ? `\`${text}\`` : "—");
	const rows = Object.entries(SETTINGS).map(([name, { key, flag, variable }]) => {
		const [what, values, byDefault] = README_ROWS[name as keyof Settings];
		return `| ${what} | ${code(key)} | ${code(flag && `--${flag}`)} | ${code(variable)} | ${values} | ${byDefault} |`;
	});
	return [
		"| setting | file key | flag | environment variable | values | default |",
		"|---|---|---|---|---|---|",
		...rows,
	].join("\n");
}

export interface MadeUpSources {
	/** The global file's text, or its JSON. */
	global?: string | object;
	/** The project's. */
	project?: string | object;
	flags?: Record<string, unknown>;
	env?: Record<string, string>;
	trusted?: () => boolean;
}

export const GLOBAL_FILE = "/agent/ask-user.json";
export const PROJECT_FILE = "/work/.pi/ask-user.json";

/** The settings as pi would read them from these files, flags and variables (flags given: after pi parsed them). */
export function settingsFrom({ global, project, flags, env = {}, trusted }: MadeUpSources = {}): SettingsReading {
	const texts: Record<string, string | object | undefined> = { [GLOBAL_FILE]: global, [PROJECT_FILE]: project };
	const read = (path: string) => {
		const text = texts[path];
		if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
		return typeof text === "string" ? text : JSON.stringify(text);
	};
	return resolveSettings(readSettingsFiles("/agent", "/work", read), {
		...(flags && { flag: (name: string) => flags[name] }),
		env,
		...(trusted && { trusted }),
	});
}
