import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		testTimeout: 20_000,
		projects: [
			{
				extends: true,
				test: {
					name: "unit",
					include: ["test/**/*.test.ts"],
					exclude: ["test/e2e/**"],
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
					testTimeout: 60_000,
					hookTimeout: 30_000,
					sequence: { groupOrder: 1 },
				},
			},
		],
	},
});
