import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app-server.ts";
import { buildSite } from "../helpers/build-site.ts";
import { conforms, send } from "../helpers/openapi-contract.ts";
import { DocumentOracle, type OpenApiDoc } from "../helpers/openapi-oracle.ts";
import { tempFolders } from "../helpers/temp-folders.ts";

/**
 * A site with no reviews yet, as every site starts: its files are small (both feeds under 1 KB),
 * and each must still be answered with every header `/openapi.json` declares required, on its 200
 * and its 304, whatever coding the client accepts.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/basic-content");
const BASE = "https://reviews.empty.test";
const FILES = ["/reviews.json", "/insights.json", "/api/feed.json", "/feed.xml", "/openapi.json"];

const temp = tempFolders();
let app: TestApp;
let oracle: DocumentOracle;

beforeAll(async () => {
  const content = await temp.copy(FIXTURE, "pr-empty-site-");
  await rm(path.join(content, "reviews"), { recursive: true });
  const build = await buildSite(content, { BASE_URL: BASE });
  expect(build.code, build.stderr).toBe(0);
  temp.add(build.distDir);
  app = await startApp(build.distDir, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "100000" } });
  oracle = new DocumentOracle((await (await fetch(`${app.url}/openapi.json`)).json()) as OpenApiDoc);
});

afterAll(async () => {
  await app?.close();
});

describe("the files of a site with no reviews", () => {
  it("send every header the document requires, on 200 and 304, with or without a coding", async () => {
    for (const file of FILES) {
      const op = oracle.doc.paths[file]?.get;
      expect(op, file).toBeDefined();
      if (!op) continue;
      for (const accept of ["br, zstd, gzip", "identity"]) {
        const ok = await send(`${app.url}${file}`, { "accept-encoding": accept });
        expect(ok.status, file).toBe(200);
        conforms(oracle, op, ok, `${file} (${accept})`);
        const etag = ok.headers.get("etag") ?? "";
        const again = await send(`${app.url}${file}`, { "accept-encoding": accept, "if-none-match": etag });
        expect(again.status, file).toBe(304);
        conforms(oracle, op, again, `${file} (${accept}, 304)`);
      }
    }
  });
});
