import { defineConfig } from "vitest/config";

/**
 * The source imports pi by the names both pis serve to extensions
 * (`@mariozechner/*`, `@sinclair/typebox`); the dev dependencies are the
 * current pi's packages under their own names. Tests resolve the old names to
 * them, as pi's loader does (tsconfig.json's `paths` do the same for types).
 */
const PI_NAMES = [
	{ find: /^@mariozechner\/pi-coding-agent$/, replacement: "@earendil-works/pi-coding-agent" },
	{ find: /^@mariozechner\/pi-tui$/, replacement: "@earendil-works/pi-tui" },
	{ find: /^@mariozechner\/pi-ai$/, replacement: "@earendil-works/pi-ai" },
	{ find: /^@sinclair\/typebox(\/.*)?$/, replacement: "typebox$1" },
];

export default defineConfig({
	resolve: { alias: PI_NAMES },
	test: {
		// Generous: property tests run thousands of cases, and a busy machine runs them several times slower.
		testTimeout: 120_000,
		// Every core (vitest's default leaves one idle: on 2 cores the unit files would run one at a time).
		// The e2e and legacy projects still run their files one at a time (fileParallelism: false).
		maxWorkers: "100%",
		projects: [
			{
				extends: true,
				test: {
					name: "unit",
					include: ["test/**/*.test.ts"],
					exclude: ["test/e2e/**", "test/legacy/**"],
					// A worker runs file after file, so pi, pi-tui and typebox (about 1,600 modules,
					// most of the suite's time when every file loaded them afresh) load once per worker.
					// What isolation gave each file it still gets: see test/support/isolate-setup.ts.
					isolate: false,
					setupFiles: ["test/support/isolate-setup.ts"],
				},
			},
			{
				// The real pi binary, one at a time, after the unit tests: each file starts pi
				// processes and polls their screens, which needs the machine's attention.
				extends: true,
				test: {
					name: "e2e",
					include: ["test/e2e/**/*.test.ts"],
					fileParallelism: false,
					// Generous: a test waits for the thing itself, and a loaded machine is slow (test/support/pi-env.ts WAIT_MS).
					testTimeout: 240_000,
					hookTimeout: 60_000,
					sequence: { groupOrder: 1 },
				},
			},
			{
				// The former pi (0.73.1): the main flow of each mode, last.
				extends: true,
				test: {
					name: "legacy",
					include: ["test/legacy/**/*.test.ts"],
					fileParallelism: false,
					// Generous: a test waits for the thing itself, and a loaded machine is slow (test/support/pi-env.ts WAIT_MS).
					testTimeout: 240_000,
					hookTimeout: 60_000,
					sequence: { groupOrder: 2 },
				},
			},
		],
	},
});
