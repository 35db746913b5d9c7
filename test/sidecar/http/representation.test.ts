import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
