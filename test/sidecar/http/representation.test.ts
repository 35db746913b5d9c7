import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { writeRepresentation } from "../../../sidecar/http/representation.ts";

/**
 * A Last-Modified from a build whose clock ran ahead is sent as the answer's Date (RFC 9110
 * §8.8.2.1), and that Date is the same clock reading: Node's own Date header comes from a cache
 * renewed once a second by a timer, which lags while the event loop is busy.
 */
let url: string;
let server: ReturnType<ReturnType<typeof express>["listen"]>;

beforeAll(async () => {
  const app = express();
  app.get("/ahead", (req, res) => {
    // Busy across a second boundary, so Node's cached Date is a second old when the answer is written.
    const until = (Math.floor(Date.now() / 1000) + 1) * 1000 + 50;
    while (Date.now() < until);
    const ahead = Date.now() + 7_200_000;
    writeRepresentation(
      req,
      res,
      {
        etag: '"x"',
        coding: "identity",
        contentType: "text/plain",
        cacheControl: "no-cache",
        lastModifiedMs: ahead,
        lastModified: new Date(ahead).toUTCString(),
        vary: false,
      },
      () => Buffer.from("x"),
    );
  });
  // A build stamped a second after the previous one (two builds in one second): its Last-Modified
  // is still ahead of the clock while that second lasts.
  app.get("/next-second", (req, res) => {
    const stamped = (Math.floor(Date.now() / 1000) + 1) * 1000;
    writeRepresentation(
      req,
      res,
      {
        etag: '"second-build"',
        coding: "identity",
        contentType: "text/plain",
        cacheControl: "no-cache",
        lastModifiedMs: stamped,
        lastModified: new Date(stamped).toUTCString(),
        vary: false,
      },
      () => Buffer.from("second build"),
    );
  });
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("Last-Modified and Date", () => {
  it("sends a Last-Modified ahead of the clock as the Date, from one clock reading", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/ahead`);
      const date = res.headers.get("date") as string;
      expect(res.headers.get("last-modified")).toBe(date);
      expect(Math.abs(Date.parse(date) - Date.now())).toBeLessThan(2000);
    }
  });
});

describe("If-Modified-Since against a Last-Modified ahead of the clock", () => {
  afterEach(() => vi.useRealTimers());

  it("never answers 304 to a copy older than the changed text, though the date sent is the clock's", async () => {
    // The server's clock stands at 10:00:00.400; the first build was stamped 10:00:00 and a cache
    // holds its text, the second build 10:00:01 (a second later, so its change is ordered).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 11, 5, 10, 0, 0, 400) });
    const heldSince = new Date(Date.UTC(2026, 11, 5, 10, 0, 0)).toUTCString();
    const res = await fetch(`${url}/next-second`, { headers: { "if-modified-since": heldSince } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("second build");
    // The date sent is still the clock's (§8.8.2.1), and a copy with it is told 200 too.
    expect(res.headers.get("last-modified")).toBe(heldSince);
    const again = await fetch(`${url}/next-second`, { headers: { "if-modified-since": heldSince } });
    expect(again.status).toBe(200);
  });
});
