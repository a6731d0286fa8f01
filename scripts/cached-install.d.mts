/** The types of cached-install.mjs, for its TypeScript callers. Keep this file in step with it. */

/** Installs test/hosts/<name>'s lockfile into node_modules/.cache/<name> if needed; resolves to that directory. */
export declare function cachedInstall(name: string): Promise<string>;
