import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTICE_CSS_PATH, type PageNotice, pageNotice } from "../../../sidecar/http/build-notice.ts";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";

/** The app as npm start runs it, with the notice of a failed build switched on and off by the test. */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const FILE = "content/reviews/2026/2026-03-14-maria-g.yaml";
let app: TestApp;
let notice: PageNotice | undefined;

const built = buildBeforeAll(FIXTURE);

beforeAll(async () => {
  app = await startApp(built.distDir, { routers: () => ({ buildNotice: () => notice }) });
}, 300_000);

afterAll(async () => {
  await app?.close();
});

const get = (p: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${p}`, { headers: { "accept-encoding": "identity", ...headers } });

describe("the notice of a failed save", () => {
  it("is on top of every HTML page while a build has failed, escaped, and gone once one succeeds", async () => {
    const before = await get("/");
    const plain = await before.text();
    notice = pageNotice([
      `${FILE}: line 3: rating: expected a whole number from 1 to 5, got 6`,
      "<script>alert(1)</script>",
    ]);
    const missing = await get("/no-such-page/");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<aside class="npm-start-build-failed"');
    for (const page of ["/", "/reviews/2024/02/"]) {
      const res = await get(page);
      const html = await res.text();
      expect(res.status).toBe(200);
      const body = html.indexOf("<body");
      const aside = html.indexOf('<aside class="npm-start-build-failed"');
      expect(aside).toBeGreaterThan(body);
      expect(html.slice(body, aside)).toMatch(/^<body[^>]*><link rel="stylesheet" href="[^"]+">$/);
      expect(html).toContain(`${FILE}: line 3: rating: expected a whole number from 1 to 5, got 6`);
      expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(html).not.toContain("<script>alert(1)</script>");
    }
    notice = undefined;
    expect(await (await get("/")).text()).toBe(plain);
  });

  it("is another representation: its own ETag, the right length, revalidated every time, and a 304 of its own", async () => {
    const plain = await get("/");
    const plainEtag = plain.headers.get("etag") as string;
    notice = pageNotice([`${FILE}: line 3: the rating is empty — write a whole number from 1 to 5`]);
    const res = await get("/");
    const bytes = Buffer.from(await res.arrayBuffer());
    const etag = res.headers.get("etag") as string;
    expect(etag).not.toBe(plainEtag);
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("last-modified")).toBeNull();
    expect(res.headers.get("content-security-policy")).toBe(plain.headers.get("content-security-policy"));
    expect((await get("/", { "if-none-match": etag })).status).toBe(304);
    // The page a browser kept from before the failure is not "not modified": it lacks the notice.
    expect((await get("/", { "if-none-match": plainEtag })).status).toBe(200);
    const gzip = await fetch(`${app.url}/`, { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(await gzip.text()).toContain("the rating is empty");
    // Another failure is another notice, so another ETag.
    notice = pageNotice([`${FILE}: line 5: the title contains ": " — put the whole title in quotes`]);
    expect((await get("/", { "if-none-match": etag })).status).toBe(200);
    notice = undefined;
  });

  it("leaves everything that is not a page alone, and styles itself from this origin (the CSP allows no inline style)", async () => {
    const json = await (await get("/reviews.json")).text();
    notice = pageNotice([`${FILE}: line 3: rating: expected a whole number from 1 to 5, got 6`]);
    expect(await (await get("/reviews.json")).text()).toBe(json);
    const css = await get(NOTICE_CSS_PATH);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    expect(await css.text()).toContain(".npm-start-build-failed");
    notice = undefined;
  });
});
