/**
 * With `isolate: false` a worker runs many files: node_modules (pi, pi-tui,
 * typebox) load once per worker, but each file still gets fresh copies of
 * this package's own modules, a fresh process record and the environment the
 * worker started with — what a fresh worker gave it. The sessions a file left
 * running (support/extension.ts) end as pi quits when the file ends, so their
 * background preload does not open a local channel in the next file.
 */
import { afterAll, vi } from "vitest";
import { quitOpenExtensions } from "./open-extensions.ts";

const holder = globalThis as { __askUserEnv?: Record<string, string | undefined> };
holder.__askUserEnv ??= { ...process.env };
const initial = holder.__askUserEnv;
for (const name of Object.keys(process.env)) if (!(name in initial)) delete process.env[name];
Object.assign(process.env, initial);
delete (globalThis as Record<symbol, unknown>)[Symbol.for("pi-ask-user/channel-registry")];
vi.resetModules();

afterAll(quitOpenExtensions);
