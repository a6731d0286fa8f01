/** The types of legacy-pi.mjs (pi 0.73.1, installed on demand), for its TypeScript callers. Keep this file in step with it. */

import type { PiCommand } from "./isolated-pi.mjs";

/** Installs `@mariozechner/pi-coding-agent` 0.73.1 (test/hosts/legacy-pi's lockfile) if needed and returns how to run it. */
export declare function ensureLegacyPi(): Promise<PiCommand>;
/** The directory of that pi's package, installed if needed. */
export declare function legacyPiPackageDir(): Promise<string>;
