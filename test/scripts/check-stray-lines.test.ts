import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkEditedCopy } from "../helpers/check-content-run.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * `npm run check` on a line that is no field, written below a field whose value is a date, a number
 * or an inline list: no text is above it to have lost it, so the check does not say one did.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");
const NECK = "reviews/2024/2024-04-10-neck-pain.yaml";
const temp = tempFolders();

/** `npm run check` on the fixture with the neck-pain review's text changed by `edit`. */
const checkEdited = (edit: (text: string) => string) => checkEditedCopy(temp, FIXTURE, NECK, edit);

const LOST = "belongs to the text above";

describe("npm run check: a line that is no field, below a value that is no text", () => {
  it.each([
    ["a date (verified_on, the file's last line)", (t: string) => `${t}my note: call back\n`, 12],
    ["a number (rating)", (t: string) => t.replace("rating: 4\n", "rating: 4\nmy note: call back\n"), 4],
    ["an inline list", (t: string) => `${t}services: [x-ray]\nmy note: call back\n`, 13],
  ])("after %s it is named as no field, not as a lost line of text", async (_, edit, line) => {
    const { code, stderr } = await checkEdited(edit);
    expect(code).toBe(1);
    expect(stderr).not.toContain(LOST);
    expect(stderr).toContain(`content/${NECK}: line ${line}: this line is not a field`);
  });

  it("after a text written on one line it still says the line may be the text's", async () => {
    const { stderr } = await checkEdited((t) =>
      t.replace(/text: \|\n.*\n/, "text: Came in with neck pain.\nDr. Patel: fixed it in one visit.\n"),
    );
    expect(stderr).toContain(`content/${NECK}: line 6: this line ${LOST}`);
  });
});
