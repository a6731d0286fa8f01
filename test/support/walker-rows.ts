/** The dialog walker's rows in English, as the tests' scripted clients read them. */

import { ENGLISH } from "../../src/i18n/texts.ts";
import { rowTexts } from "../../src/walker/views.ts";

export const ROW = rowTexts(ENGLISH);
