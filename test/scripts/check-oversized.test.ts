import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkIn, checkoutOf, edit } from "../helpers/check-content-run.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * `npm run check` on a review whose fields are each within their limits but whose record would not
 * fit one entry of the review log: named beside every other file's problems, not only once they
 * are fixed.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");
const NECK = "reviews/2024/2024-04-10-neck-pain.yaml";
const temp = tempFolders();

const CATALOGUES = ["technicians", "services", "service_areas"] as const;
/** 100 ids of 100 characters for `kind`, as long and as many as a review may list. */
const longIds = (kind: string) =>
  Array.from({ length: 100 }, (_, i) => `${kind.slice(0, 4)}-${String(i).padStart(3, "0")}-${"x".repeat(91)}`);

/** business.yaml with 100 more entries in each catalogue, and the neck-pain review listing them all. */
async function oversizedCheckout(): Promise<string> {
  const root = await checkoutOf(temp, FIXTURE);
  await edit(path.join(root, "content/business.yaml"), (t) =>
    CATALOGUES.reduce(
      (text, kind) =>
        text.replace(
          `\n${kind}:\n`,
          `\n${kind}:\n${longIds(kind)
            .map(
              (id, i) =>
                `  - id: ${id}\n    name: ${kind} entry ${i}\n${kind === "technicians" ? "    title: Staff\n" : ""}`,
            )
            .join("")}`,
        ),
      t,
    ),
  );
  const emoji = "😀".repeat(4999);
  await edit(path.join(root, "content", NECK), (t) =>
    [
      t.replace(/text: \|\n {2}.*\n/, `title: "${"😀".repeat(199)}"\ntext: "${emoji}"\n`),
      `response: {date: 2024-04-11, text: "${emoji}"}`,
      ...CATALOGUES.map((kind) => `${kind}: [${longIds(kind).join(", ")}]`),
      "",
    ].join("\n"),
  );
  return root;
}

const TOO_LONG = `content/${NECK}: line 1: the review is too long for the review log: its entry would be`;

describe("npm run check: a review too long for one entry of the review log", () => {
  it("is named", async () => {
    const { code, stderr } = await checkIn(await oversizedCheckout());
    expect(code).toBe(1);
    expect(stderr).toContain(TOO_LONG);
  });

  it("is named beside a problem in another file", async () => {
    const root = await oversizedCheckout();
    await edit(path.join(root, "content/reviews/2025/2025-02-20-tom-alias.yaml"), (t) =>
      t.replace(/^rating: \d/m, "rating: 9"),
    );
    const { code, stderr } = await checkIn(root);
    expect(code).toBe(1);
    expect(stderr).toContain("2025-02-20-tom-alias.yaml: line 3: rating: expected a whole number from 1 to 5, got 9");
    expect(stderr).toContain(TOO_LONG);
  });
});
