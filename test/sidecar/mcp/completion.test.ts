import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../helpers/build-site.ts";
import { connectClient, type McpTestApp, startMcpApp } from "../../helpers/mcp-app.ts";

/**
 * `completion/complete` on `reviews://{id}` sends at most 100 ids, and says how many match in
 * all: the spec's CompleteResult lets `total` exceed the values sent, with `hasMore`.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.test";
const PREFIX = "2024-06-01-gen-";
const GENERATED = 130;
let content: string;
let dist: string | undefined;
let app: McpTestApp;
const clients: Client[] = [];

/** A review of the fixture's shape, its text made unique by `n`. */
const review = (n: number) =>
  [
    "date: 2024-06-01",
    'published_at: "2024-06-02T10:00:00Z"',
    `rating: ${(n % 5) + 1}`,
    `author: Patient ${n}`,
    "text: |",
    `  Visit number ${n} went well; the adjustment helped my back and the front desk was kind.`,
    "source:",
    "  platform: healthgrades",
    `  url: https://www.healthgrades.example/reviews/generated-${n}`,
    "verification:",
    "  method: platform_verified",
    "  verified_on: 2024-06-02",
    "",
  ].join("\n");

beforeAll(async () => {
  content = await mkdtemp(path.join(os.tmpdir(), "pr-mcp-completion-"));
  await cp(FIXTURE, content, { recursive: true });
  for (let n = 1; n <= GENERATED; n++) {
    const file = path.join(content, "reviews", "2024", `${PREFIX}${String(n).padStart(3, "0")}.yaml`);
    await writeFile(file, review(n));
  }
  const build = await buildSite(content, { BASE_URL: BASE });
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
  app = await startMcpApp(dist, { env: { BASE_URL: BASE } });
}, 600_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await app?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
  await rm(content, { recursive: true, force: true });
});

describe("completion of reviews://{id}", () => {
  it("sends 100 ids of 130 matches with total 130 and hasMore, in both eras", async () => {
    for (const era of ["legacy", "modern"] as const) {
      const { client } = await connectClient(app.endpoint, era);
      clients.push(client);
      const ask = (value: string) =>
        client.complete({ ref: { type: "ref/resource", uri: "reviews://{id}" }, argument: { name: "id", value } });
      const { completion } = await ask(PREFIX);
      expect(completion.values, era).toHaveLength(100);
      expect([completion.total, completion.hasMore], era).toEqual([GENERATED, true]);
      for (const id of completion.values) expect(id.startsWith(PREFIX), id).toBe(true);
      // Under the cap every match is sent, and nothing more is said to be left.
      const few = (await ask(`${PREFIX}01`)).completion;
      expect([few.values.length, few.total, few.hasMore], era).toEqual([10, 10, false]);
    }
  });

  it("completes an argument the template does not have to nothing, whatever its name, in both eras", async () => {
    for (const era of ["legacy", "modern"] as const) {
      const { client } = await connectClient(app.endpoint, era);
      clients.push(client);
      // Names of Object.prototype's members were looked up as completers: -32603 Internal error.
      for (const name of ["other", "__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"]) {
        const { completion } = await client.complete({
          ref: { type: "ref/resource", uri: "reviews://{id}" },
          argument: { name, value: PREFIX },
        });
        expect([completion.values, completion.hasMore], `${era} ${name}`).toEqual([[], false]);
      }
    }
  });
});
