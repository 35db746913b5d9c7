import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { DocumentOracle, type OpenApiDoc, type Schema } from "../../helpers/openapi-oracle.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

/**
 * `mentions_technician` for a name with a letter whose lower case is two characters (İ is i and
 * U+0307): the server reads the name in any letter case, so the pattern `/openapi.json` gives the
 * parameter must take exactly the spellings the server takes, İ among them.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.names.test";
const TECHNICIAN = ["  - id: ilker-demir", "    name: Dr. İlker Demir", "    title: Doctor of Chiropractic"];

const temp = tempFolders();
let app: TestApp;
let oracle: DocumentOracle;
let schema: Schema;

beforeAll(async () => {
  const dir = await temp.copy(FIXTURE, "pr-technician-names-");
  const business = path.join(dir, "business.yaml");
  const yaml = await readFile(business, "utf8");
  await writeFile(business, yaml.replace(/^technicians:\n/m, `technicians:\n${TECHNICIAN.join("\n")}\n`));
  const result = await buildSite(dir, { BASE_URL: BASE });
  if (result.code !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
  temp.add(result.distDir);
  app = await startApp(result.distDir, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "1000000" } });
  const doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as OpenApiDoc;
  oracle = new DocumentOracle(doc);
  const parameters = doc.paths["/api/reviews/search"]?.get?.parameters ?? [];
  schema = (parameters.find((p) => p.name === "mentions_technician") as { schema: Schema }).schema;
});

afterAll(async () => {
  await app?.close();
});

const status = async (name: string) =>
  (await fetch(`${app.url}/api/reviews/search?${new URLSearchParams({ mentions_technician: name })}`)).status;

describe("a technician name holding İ", () => {
  it("is taken by the document's pattern exactly where the server takes it", async () => {
    for (const name of [
      "Dr. İlker Demir",
      "DR. İLKER DEMIR",
      "dr. i\u0307lker demir",
      "Dr. I\u0307lker Demir",
      "ilker-demir",
    ]) {
      expect(await status(name), name).toBe(200);
      expect(oracle.errors(schema, name), name).toEqual([]);
    }
    for (const name of ["Dr. Ilker Demir", "dr. ilker demir", "Dr. \u0130\u0307lker Demir"]) {
      expect(await status(name), name).toBe(400);
      expect(oracle.errors(schema, name), name).not.toEqual([]);
    }
  });
});
