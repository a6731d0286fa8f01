/**
 * Reading the settings: the files once at start-up, then each setting from its flag, variable, the project's file, the
 * global one, else its default; a bad value is a warning, and the next source applies.
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject, own } from "../core/json.ts";
import { errorText, type Phrase, phrase } from "../core/types.ts";
import { type Env, ROWS, type Setting, type Settings } from "./table.ts";

/** One file, read: the values it gives, typed, by file key. */
type SettingsFile = { path: string; project: boolean; values: ReadonlyMap<string, { value: unknown }> };

/**
 * `files`: the project's first, as it wins key by key; `warnings` as phrases: the locale is itself a setting, so they
 * are put into words once it is known.
 */
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

/**
 * Reads the global file and the project's, once, at start-up; a missing file is no problem, an unreadable one a
 * warning.
 */
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
	/**
	 * Whether the user trusted the project; asked only where its file sets what needs it. Absent: not known yet, so those
	 * wait, unsaid.
	 */
	trusted?(): boolean;
}

export interface SettingsReading {
	settings: Settings;
	/**
	 * The files', the project's untrusted steering texts' and timeout's, and one per value a flag or variable gave that
	 * its rule refused.
	 */
	warnings: Phrase[];
	/** The project's file sets a steering text, and the user trusted the project: it applies. */
	projectSteering: boolean;
	/** The settings a flag, a variable or a file gave, not their defaults. */
	given: (keyof Settings)[];
}

/** Every setting from the first source that gives it: flag, variable, project file, global file, default. */
export function resolveSettings(read: SettingsFiles, sources: SettingSources): SettingsReading {
	const warnings = [...read.warnings];
	const project = read.files.find((file) => file.project);
	// What the project's file sets that waits for the user's trust: its steering texts, and a value that ends forms (a
	// timeout; not 0, no limit).
	const gated = (setting: Setting<unknown>) => {
		const given = project?.values.get(setting.key);
		return given !== undefined && (setting.steering === true || setting.needsTrust?.(given.value) === true);
	};
	const keysOf = (which: (setting: Setting<unknown>) => boolean) =>
		ROWS.filter(([, setting]) => which(setting)).map(([, { key }]) => key);
	const steering = keysOf((setting) => setting.steering === true && gated(setting));
	const ending = keysOf((setting) => setting.needsTrust !== undefined && gated(setting));
	const trusted = steering.length + ending.length > 0 && (sources.trusted?.() ?? false);
	if (project && !trusted && sources.trusted) {
		if (steering.length > 0)
			warnings.push(phrase("warning.projectSteering", { file: project.path, keys: steering.join(", ") }));
		if (ending.length > 0)
			warnings.push(phrase("warning.projectEnding", { file: project.path, keys: ending.join(", ") }));
	}
	const userOnly = keysOf((setting) => setting.userOnly === true && project?.values.has(setting.key) === true);
	if (project && userOnly.length > 0)
		warnings.push(phrase("warning.projectUserOnly", { file: project.path, keys: userOnly.join(", ") }));
	const settings: Record<string, unknown> = {};
	const given: (keyof Settings)[] = [];
	for (const [name, setting] of ROWS) {
		const files =
			setting.userOnly || (gated(setting) && !trusted) ? read.files.filter((file) => !file.project) : read.files;
		const found = valueOf(setting, files, sources, warnings);
		settings[name] = found ? found.value : defaultOf(setting, sources.env);
		if (found) given.push(name);
	}
	return { settings: settings as Settings, warnings, projectSteering: trusted && steering.length > 0, given };
}

const defaultOf = (setting: Setting<unknown>, env: Env): unknown =>
	setting.otherwise ? setting.otherwise(env) : setting.rule.json(setting.default)?.value;

/** What a flag, a variable or a file gives the setting, the first that gives it; none: the default applies. */
function valueOf(
	setting: Setting<unknown>,
	files: readonly SettingsFile[],
	sources: SettingSources,
	warnings: Phrase[],
): { value: unknown } | undefined {
	const given: [string, unknown][] = [];
	if (setting.flag) given.push([`--${setting.flag}`, sources.flag?.(setting.flag)]);
	if (setting.variable) given.push([setting.variable, sources.env[setting.variable]]);
	for (const [source, raw] of given) {
		// An empty flag or variable (`PI_ASK_USER_ATTENTION=` from a wrapper) gives nothing: the files still apply.
		const text = raw === undefined ? "" : String(raw).trim();
		if (text === "") continue;
		const read = setting.rule.text ? setting.rule.text(text) : setting.rule.json(text);
		if (read) return read;
		warnings.push(
			phrase("warning.settingsBadValue", { source, takes: setting.rule.takes, found: JSON.stringify(String(raw)) }),
		);
	}
	return files.map((file) => file.values.get(setting.key)).find((value) => value !== undefined);
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
