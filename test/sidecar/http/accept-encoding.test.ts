import path from "node:path";
import { describe, expect, it } from "vitest";
import { servedBuild } from "../../helpers/served-build.ts";

/**
 * RFC 9110 §8.4.1.3: a recipient SHOULD consider "x-gzip" equivalent to "gzip". The server reads a
 * body so coded as gzip (sidecar/body-codings.ts); a client that names it in Accept-Encoding is
 * answered in gzip as well, on search, since and the files.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.example";
const served = servedBuild(FIXTURE, BASE);

async function coded(target: string, acceptEncoding: string) {
  const res = await fetch(`${served.app.url}${target}`, { headers: { "accept-encoding": acceptEncoding } });
  expect(res.status).toBe(200);
  return { coding: res.headers.get("content-encoding"), etag: res.headers.get("etag"), body: await res.bytes() };
}

describe("Accept-Encoding: x-gzip", () => {
  it.each(["/api/reviews/search?limit=5", "/api/reviews/since/2024-01-01", "/reviews.json"])(
    "%s is sent in gzip, the same bytes and ETag as for gzip",
    async (target) => {
      const identity = await coded(target, "identity");
      const gzip = await coded(target, "gzip");
      expect(gzip.coding).toBe("gzip");
      for (const header of ["x-gzip", "X-GZIP", "br;q=0.1, x-gzip;q=0.9"]) {
        const got = await coded(target, header);
        expect(got.coding, header).toBe("gzip");
        expect(got.etag, header).toBe(gzip.etag);
        // fetch decodes the gzip it is sent.
        expect(Buffer.from(got.body).equals(Buffer.from(identity.body)), header).toBe(true);
      }
    },
  );

  it("is refused as gzip is: x-gzip;q=0 leaves the body as it is", async () => {
    expect((await coded("/api/reviews/search?limit=5", "x-gzip;q=0")).coding).toBeNull();
  });
});
