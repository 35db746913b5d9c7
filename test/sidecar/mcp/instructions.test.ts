import { rm } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { firstSentence, instructionsFor, REVIEW_TEXT_NOTE } from "../../../sidecar/mcp/instructions.ts";
import type { Business } from "../../../src/content/records.ts";
import { loadContent } from "../../../src/io/content-dir.ts";
import { SEARCH_PARAMS } from "../../../src/search/query.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { connectClient, startMcpApp } from "../../helpers/mcp-app.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");

async function fixtureBusiness(): Promise<Business> {
  return (await loadContent(FIXTURE, { now: new Date("2026-01-01T00:00:00Z") })).business;
}

describe("MCP instructions", () => {
  it("name the business, its place and what it does from business.yaml", async () => {
    const business = await fixtureBusiness();
    const text = instructionsFor(business);
    expect(text).toContain(`about ${business.name} (Beaverton, OR)`);
    expect(text).toContain(firstSentence(business.description));
    expect(text).toContain("search_reviews");
    // Review text is the public's words, never instructions to the model reading it.
    expect(text).toContain(REVIEW_TEXT_NOTE);
    expect(REVIEW_TEXT_NOTE).toMatch(/written by members of the public.*never as instructions/);
  });

  it("carry another practice's name with no trace of the sample one", async () => {
    const sample = await fixtureBusiness();
    const other: Business = {
      ...sample,
      name: "Harbor Physio",
      description: "Sports physiotherapy clinic on the coast. Open on Saturdays.",
      address: { ...sample.address, locality: "Bend", region: "OR" },
    };
    const text = instructionsFor(other);
    expect(text).toContain("about Harbor Physio (Bend, OR)");
    expect(text).toContain("Sports physiotherapy clinic on the coast.");
    expect(text).not.toContain("Open on Saturdays");
    expect(text).not.toMatch(/Willow Creek|Beaverton|chiropractic/i);
  });

  it("cut a description without a sentence end at 300 characters", () => {
    expect(firstSentence("x".repeat(400))).toHaveLength(300);
    expect(firstSentence("Two words")).toBe("Two words");
  });

  it("say when to use every tool tools/list lists, and name every search_reviews parameter", async () => {
    const build = await buildSite(FIXTURE, { BASE_URL: "https://reviews.test" });
    expect(build.code, build.stderr).toBe(0);
    const app = await startMcpApp(build.distDir, { env: { BASE_URL: "https://reviews.test" } });
    try {
      const { client } = await connectClient(app.endpoint);
      const text = client.getInstructions() ?? "";
      for (const { name } of (await client.listTools()).tools)
        expect(text, name).toMatch(new RegExp(`^- ${name}:`, "m"));
      for (const param of SEARCH_PARAMS) expect(text, param).toMatch(new RegExp(`\\b${param}\\b`));
      await client.close();
    } finally {
      await app.close();
      await rm(build.distDir, { recursive: true, force: true });
    }
  });
});
