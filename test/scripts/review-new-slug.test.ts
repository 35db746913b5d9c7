import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAt } from "../helpers/review-new-run.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * The id `npm run review:new` gives a review: the date and the author's name in ASCII kebab-case.
 * Letters are spelled in ASCII as a reader would (accents dropped, ø as o, ß as ss), an apostrophe
 * joins the letters around it, and the id never starts, ends or doubles a hyphen.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const temp = tempFolders();

/** The id review:new gives a review by `author` on 14 March 2026 in a fresh copy of the fixture. */
async function idFor(author: string): Promise<string> {
  const dir = await temp.copy(FIXTURE, "pr-review-slug-");
  const before = new Set(await readdir(path.join(dir, "reviews/2026")).catch(() => []));
  const { code, err } = await runAt("2026-03-14T10:00:00Z", dir, ["--author", author, "--date", "2026-03-14"]);
  expect(err).toBe("");
  expect(code).toBe(0);
  const made = (await readdir(path.join(dir, "reviews/2026"))).filter((f) => !before.has(f));
  expect(made).toHaveLength(1);
  return path.basename(made[0] as string, ".yaml");
}

describe("npm run review:new: the id from the author's name", () => {
  it.each([
    ["Søren K.", "soren-k"],
    ["Ørjan Æsheim", "orjan-aesheim"],
    ["Großmann", "grossmann"],
    ["Łukasz Wałęsa", "lukasz-walesa"],
    ["Đorđe Þórsson", "dorde-thorsson"],
    ["Guðrún Œhler", "gudrun-oehler"],
    ["José Núñez", "jose-nunez"],
    ["O'Brien T.", "obrien-t"],
    ["D’Angelo M.", "dangelo-m"],
    ["— Maria  --  G. —", "maria-g"],
    ["Ø", "o"],
    ["张伟", "review"],
  ])("%s gets %s", async (author, slug) => {
    expect(await idFor(author)).toBe(`2026-03-14-${slug}`);
  });

  it("a long name is cut at 40 characters of the slug, never on a hyphen", async () => {
    const id = await idFor(`${"ø".repeat(39)} Østergaard`);
    expect(id).toBe(`2026-03-14-${"o".repeat(39)}`);
    const cut = await idFor(`${"æ".repeat(20)} Berg`);
    expect(cut).toBe(`2026-03-14-${"ae".repeat(20)}`);
  });
});
