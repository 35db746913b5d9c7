import path from "node:path";
import { describe, expect, it } from "vitest";
import { servedBuild } from "../../helpers/served-build.ts";

/**
 * since/{date} takes GET and HEAD whatever the date (docs/api.md, "Behaviour of every endpoint"):
 * another method is a 405 with `Allow`, a plain OPTIONS a 204 with the same `Allow`, and only a GET
 * or HEAD has its date read, so a date that does not decode (`%zz`, `%E9`) changes none of that.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.example";
const served = servedBuild(FIXTURE, BASE);

describe("since/{date} under a method it does not take", () => {
  it.each(["2024-01-01", "2024-13-45", "%zz", "%E9"])(
    "since/%s: 405 for PUT, DELETE and POST, 204 for OPTIONS",
    async (date) => {
      const url = `${served.app.url}/api/reviews/since/${date}`;
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
      expect((await fetch(`${served.app.url}/api/reviews/since/%zz/x`, { method })).status, method).toBe(404);
    }
  });

  it("still reads the date of a GET and a HEAD", async () => {
    for (const method of ["GET", "HEAD"]) {
      expect((await fetch(`${served.app.url}/api/reviews/since/%zz`, { method })).status, method).toBe(400);
    }
  });
});
