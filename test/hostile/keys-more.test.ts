/**
 * The second half of keys.test.ts's random key sequences (see there and
 * support/random-keys.ts): a file of its own so that it runs beside the first.
 */

import { setKeybindings } from "@mariozechner/pi-tui";
import { beforeAll } from "vitest";
import { piKeybindings } from "../form/support.ts";
import { randomKeysTest } from "./support/random-keys.ts";

beforeAll(() => setKeybindings(piKeybindings()));

randomKeysTest(2);
