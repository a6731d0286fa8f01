import type { Browser } from "playwright-core";

export function launchChromium(extraArgs?: readonly string[]): Promise<Browser>;
