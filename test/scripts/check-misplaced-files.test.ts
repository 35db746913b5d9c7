import { cp, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkIn, checkoutOf } from "../helpers/check-content-run.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * `npm run check` on a file saved where no review is read: beside business.yaml, in a mistyped
 * folder, straight under reviews/, or under a name that does not end in `.yaml`. Each would be
 * left out of the site without a word; the check names it and says where it goes, and fails.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/insights-content");
const NECK = "reviews/2024/2024-04-10-neck-pain.yaml";
const temp = tempFolders();

/** `npm run check` on the fixture with the neck-pain review copied to `to` (a path under content/). */
async function checkWithCopyAt(to: string) {
  const root = await checkoutOf(temp, FIXTURE);
  await mkdir(path.dirname(path.join(root, "content", to)), { recursive: true });
  await cp(path.join(root, "content", NECK), path.join(root, "content", to));
  return checkIn(root);
}

describe("npm run check: a file where no review is read", () => {
  it("a review saved beside business.yaml is named, with where it goes", async () => {
    const { code, stderr } = await checkWithCopyAt("review-foo.yaml");
    expect(code).toBe(1);
    expect(stderr).toContain(
      "content/review-foo.yaml: (file): is never read: content/ holds business.yaml, reviews/ and insights/ only — move a review to content/reviews/<year>/<id>.yaml, and anything else out of content/",
    );
  });

  it("a review in a mistyped folder is named by the folder", async () => {
    const { code, stderr } = await checkWithCopyAt("review/2024/2024-04-11-ida.yaml");
    expect(code).toBe(1);
    expect(stderr).toContain(
      "content/review: (file): is never read: content/ holds business.yaml, reviews/ and insights/ only — move a review to content/reviews/<year>/<id>.yaml, and anything else out of content/",
    );
  });

  it("a .yml or .YAML file in a year folder is told to be renamed", async () => {
    for (const name of ["2024-04-11-ida.yml", "2024-04-11-ida.YAML"]) {
      const { code, stderr } = await checkWithCopyAt(`reviews/2024/${name}`);
      expect(code).toBe(1);
      expect(stderr).toContain(
        `content/reviews/2024/${name}: (file): is never read, as a review file's name ends in .yaml — rename it to 2024-04-11-ida.yaml`,
      );
    }
  });

  it("a review straight under reviews/ is told to move into its year folder", async () => {
    const { code, stderr } = await checkWithCopyAt("reviews/2024-04-11-ida.yaml");
    expect(code).toBe(1);
    expect(stderr).toContain(
      "content/reviews/2024-04-11-ida.yaml: (file): is never read, as reviews/ holds one folder per year — move it to content/reviews/<year>/, the year of its date",
    );
  });

  it("another file in a year folder is told to leave content/", async () => {
    const { code, stderr } = await checkWithCopyAt("reviews/2024/notes.txt");
    expect(code).toBe(1);
    expect(stderr).toContain(
      "content/reviews/2024/notes.txt: (file): is never read, as a year folder holds review files (<id>.yaml) only — move it out of content/ or delete it",
    );
  });

  it("a file whose name starts with a dot (an editor's swap file, .DS_Store) still gets no message", async () => {
    const root = await checkoutOf(temp, FIXTURE);
    await writeFile(path.join(root, "content/.DS_Store"), "");
    await writeFile(path.join(root, "content/reviews/2024/.2024-04-10-neck-pain.yaml.swp"), "");
    expect(await checkIn(root)).toMatchObject({ code: 0, stderr: "" });
  });
});
