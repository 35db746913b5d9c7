import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtPages, text } from "../helpers/build-site.ts";

/**
 * The home page's data cards and the API reference page of the same build as the HTML pages'
 * tests (site-html.test.ts): every GET endpoint linked, every card's name leading to its
 * operation's documentation, and every operation of /openapi.json documented.
 */

// A BASE_URL below a folder checks that site-internal links carry the prefix.
const BASE = "https://reviews.example.org/willow";
const FIXTURE = path.resolve(import.meta.dirname, "../fixtures/html-content");

let dist: string;
let home: string;
/** Every HTML page of the build, keyed by its path below dist/. */
let pages = new Map<string, string>();

beforeAll(async () => {
  ({ distDir: dist, pages } = await builtPages(FIXTURE, { BASE_URL: BASE }));
  home = pages.get("index.html") ?? "";
});

afterAll(async () => {
  if (dist) await rm(dist, { recursive: true, force: true });
});

describe("HTML pages", () => {
  it("links every GET endpoint, and every card's name to that endpoint's documentation", () => {
    for (const url of [
      "/reviews.json",
      "/insights.json",
      "/api/feed.json",
      "/feed.xml",
      "/openapi.json",
      "/api/reviews/search",
      "/api/reviews/since/2025-03-01",
    ]) {
      expect(home).toContain(`href="${BASE}${url}"`);
    }
    // A browser cannot use the MCP endpoint or the hub: no card opens them, only their documentation.
    const data = home.slice(home.indexOf('id="data"'));
    expect(data).not.toContain(`href="${BASE}/mcp"`);
    expect(data).not.toContain(`href="${BASE}/api/websub/hub"`);
    const reference = pages.get("api/index.html") ?? "";
    const cards = [...home.matchAll(/<p class="data__name"[^>]*><a href="([^"]+)"/g)].map((m) => m[1] as string);
    expect(cards.length).toBe(9);
    for (const href of cards) {
      expect(href.startsWith(`${BASE}/api/#`), href).toBe(true);
      const id = href.slice(href.indexOf("#") + 1);
      expect(reference, id).toContain(`id="${id}"`);
    }
    expect(cards).toEqual(expect.arrayContaining([`${BASE}/api/#postMcp`, `${BASE}/api/#postWebSubHub`]));
    expect(text(home)).toContain("Model Context Protocol");
  });

  it("documents every operation of /openapi.json on the API reference page", async () => {
    const doc = JSON.parse(await readFile(path.join(dist, "openapi.json"), "utf8")) as {
      paths: Record<string, Record<string, { operationId: string; summary: string }>>;
    };
    const reference = pages.get("api/index.html") ?? "";
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        expect(reference, op.operationId).toContain(`id="${op.operationId}"`);
        expect(text(reference)).toContain(op.summary);
      }
    }
  });

  it("shows the descriptions' code spans as code, as CommonMark reads them (OpenAPI 3.1 §4.8), never as backticks", () => {
    const reference = pages.get("api/index.html") ?? "";
    const main = reference.slice(reference.indexOf("<main"), reference.indexOf("</main>"));
    expect(main).not.toContain("`");
    // "ETags from earlier answers (a list, or `*`)" and the feed's "`_review`" extension.
    expect(main).toMatch(/a list, or <code[^>]*>\*<\/code>\)/);
    expect(main).toMatch(/<code[^>]*>_review<\/code>/);
  });

  it("documents what each operation takes in its body: the hub's form fields, for each hub.mode, and MCP's JSON-RPC message", () => {
    const reference = pages.get("api/index.html") ?? "";
    const section = (id: string) =>
      text(
        reference.slice(
          reference.indexOf(`id="${id}"`),
          reference.indexOf("</section>", reference.indexOf(`id="${id}"`)),
        ),
      );
    const hub = section("postWebSubHub");
    expect(hub).toContain("hub.mode=subscribe or unsubscribe");
    expect(hub).toContain("hub.mode=publish");
    for (const field of [
      "hub.callback (required)",
      "hub.topic (required)",
      "hub.lease_seconds",
      "hub.secret",
      "hub.url",
    ])
      expect(hub).toContain(field);
    expect(hub).toContain("The subscriber's callback: an absolute https URI");
    expect(section("postMcp")).toContain("application/json: A JSON-RPC 2.0 request or notification.");
  });
});
