/**
 * The settings table's outputs for the docs — the JSON Schema shipped in
 * schema/ and README's settings table — and a way to read settings from files,
 * flags and variables made up for a test.
 */

import { readSettingsFiles, resolveSettings, SETTINGS, type SettingsReading } from "../../src/settings.ts";

type Json = Record<string, unknown>;

/** schema/ask-user.schema.json: one property per row, with its rule's schema, its help and its default. */
export function settingsSchemaText(): string {
	const properties: Json = { $schema: { type: "string" } };
	for (const setting of Object.values(SETTINGS)) {
		const where = setting.flag ? ` Flag --${setting.flag}, variable ${setting.variable}.` : "";
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

export const README_TABLE_START = "<!-- settings table: npm run schemas writes it from src/settings.ts -->";
export const README_TABLE_END = "<!-- end of settings table -->";

/** README's settings table, a row per setting. */
export function settingsReadmeTable(): string {
	const code = (text: string | undefined) => (text ? `\`${text}\`` : "—");
	const rows = Object.values(SETTINGS).map(
		({ key, flag, variable, readme: [what, values, byDefault] }) =>
			`| ${what} | ${code(key)} | ${code(flag && `--${flag}`)} | ${code(variable)} | ${values} | ${byDefault} |`,
	);
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
