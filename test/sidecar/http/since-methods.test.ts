import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";

/**
 * since/{date} takes GET and HEAD whatever the date (docs/api.md, "Behaviour of every endpoint"):
 * another method is a 405 with `Allow`, a plain OPTIONS a 204 with the same `Allow`, and only a GET
 * or HEAD has its date read, so a date that does not decode (`%zz`, `%E9`) changes none of that.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.example";
let app: TestApp;

const built = buildBeforeAll(FIXTURE, { BASE_URL: BASE });

beforeAll(async () => {
  app = await startApp(built.distDir, { env: { BASE_URL: BASE, RATE_LIMIT_PER_MINUTE: "100000" } });
});

afterAll(async () => {
  await app?.close();
});

describe("since/{date} under a method it does not take", () => {
  it.each(["2024-01-01", "2024-13-45", "%zz", "%E9"])(
    "since/%s: 405 for PUT, DELETE and POST, 204 for OPTIONS",
    async (date) => {
      const url = `${app.url}/api/reviews/since/${date}`;
      for (const method of ["PUT", "DELETE", "POST"]) {
        const res = await fetch(url, { method });
        expect(res.status, method).toBe(405);
        expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
        expect((await res.json()).error).toBe("method_not_allowed");
      }
      const options = await fetch(url, { method: "OPTIONS" });
      expect(options.status).toBe(204);
      expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    },
  );

  it("leaves a path below a date unknown, whatever the method", async () => {
    for (const method of ["GET", "PUT"]) {
      expect((await fetch(`${app.url}/api/reviews/since/%zz/x`, { method })).status, method).toBe(404);
    }
  });

  it("still reads the date of a GET and a HEAD", async () => {
    for (const method of ["GET", "HEAD"]) {
      expect((await fetch(`${app.url}/api/reviews/since/%zz`, { method })).status, method).toBe(400);
    }
  });
});
