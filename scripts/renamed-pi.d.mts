/**
 * The types of renamed-pi.mjs (the renamed pi, installed on demand for the
 * compatibility tests), for its TypeScript callers. Keep this file in step with it.
 */

import type { PiCommand } from "./isolated-pi.mjs";

/**
 * Installs `@earendil-works/pi-coding-agent` (test/renamed-pi's lockfile) into
 * node_modules/.cache/renamed-pi if needed, and returns how to run it, with a
 * Node ≥ 22.19. Rejects with what to do when that cannot be done here.
 */
export declare function ensureRenamedPi(): Promise<PiCommand>;
