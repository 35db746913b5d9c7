import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import jsYaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { ContentError } from "../../../src/content/errors.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

/** A content folder on disk that does not validate: what loadContent and a real build say of it. */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
/** Just after the fixture's newest review was published: "the future" starts tomorrow. */
const NOW = new Date("2025-03-13T12:00:00Z");
const DANA = "2024-02-29-dana-k";

const temp = tempFolders();

describe("loadContent on a folder", () => {
  it("rejects the same file name in two year folders and files outside <year>/<id>.yaml", async () => {
    const dir = await temp.copy(FIXTURE, "pr-dup-");
    const original = jsYaml.load(await readFile(path.join(dir, "reviews/2024", `${DANA}.yaml`), "utf8"), {
      schema: jsYaml.CORE_SCHEMA,
    }) as Record<string, unknown>;
    const moved = {
      ...original,
      date: "2025-01-02",
      published_at: "2025-01-02T10:00:00Z",
      verification: { method: "invoice", verified_on: "2025-01-02" },
    };
    await writeFile(path.join(dir, "reviews/2025", `${DANA}.yaml`), jsYaml.dump(moved));
    await writeFile(path.join(dir, "reviews/2025/notes.txt"), "todo");
    await mkdir(path.join(dir, "reviews/misc"));

    const error = await loadContent(dir, { now: NOW }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentError);
    expect((error as ContentError).problems).toEqual([
      `${dir}/reviews/2025/notes.txt: (file): is never read, as a year folder holds review files (<id>.yaml) only — move it out of content/ or delete it`,
      `${dir}/reviews/misc: (file): is never read, as reviews/ holds one folder per year, named as 2026 is — move the reviews in it to the folders of their years`,
      `${dir}/reviews/2025/${DANA}.yaml: id: duplicate review id, already used by ${dir}/reviews/2024/${DANA}.yaml, got "${DANA}"`,
    ]);
  });
});

describe("astro build of invalid content", () => {
  it("exits non-zero and prints the file, the field and the reason", async () => {
    const dir = await temp.copy(FIXTURE, "pr-bad-");
    const file = path.join(dir, "reviews/2024", `${DANA}.yaml`);
    await writeFile(file, (await readFile(file, "utf8")).replace("rating: 5", "rating: 6"));

    const result = await buildSite(dir, { BASE_URL: "https://reviews.example" });
    temp.add(result.distDir);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain(
      `${file}: line 3: rating: expected a whole number from 1 to 5, got 6`,
    );
  }, 300_000); // Waits its turn on the machine-wide build lock.
});
