import path from "node:path";
import { describe, expect, it } from "vitest";
import { servedBuild } from "../../helpers/served-build.ts";

/**
 * The obsolete HTTP-date forms a recipient must still read (RFC 9110 §5.6.7), in conditional
 * requests against the app on port 0. The RFC 850 form has a two-digit year, which is read as the
 * year with those digits that is not more than 50 years in the future: JavaScript's Date reads
 * 50–99 as 1950–1999 whatever today is.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const served = servedBuild(FIXTURE, "https://reviews.dates.test");

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** `ms` in the RFC 850 form: `Sunday, 06-Dec-26 15:02:21 GMT`. */
function rfc850(ms: number): string {
  const [, day, month, year, time] = /^\w+, (\d{2}) (\w{3}) \d{2}(\d{2}) (\S+) GMT$/.exec(
    new Date(ms).toUTCString(),
  ) as RegExpExecArray;
  return `${WEEKDAYS[new Date(ms).getUTCDay()]}, ${day}-${month}-${year} ${time} GMT`;
}

/** `ms` in the asctime form: `Sun Dec  6 15:02:21 2026`. */
function asctime(ms: number): string {
  const d = new Date(ms);
  const [weekday, month] = [d.toUTCString().slice(0, 3), d.toUTCString().slice(8, 11)];
  return `${weekday} ${month} ${String(d.getUTCDate()).padStart(2, " ")} ${d.toISOString().slice(11, 19)} ${d.getUTCFullYear()}`;
}

const get = (headers: Record<string, string>) =>
  fetch(`${served.app.url}/feed.xml`, { headers: { "accept-encoding": "identity", ...headers } });

describe("obsolete HTTP-date forms in conditional requests", () => {
  it("reads the Last-Modified in the RFC 850 and asctime forms", async () => {
    const lastModified = Date.parse((await get({})).headers.get("last-modified") as string);
    expect((await get({ "if-modified-since": rfc850(lastModified) })).status).toBe(304);
    expect((await get({ "if-modified-since": asctime(lastModified) })).status).toBe(304);
    expect((await get({ "if-unmodified-since": rfc850(lastModified - 1000) })).status).toBe(412);
  });

  it("reads a two-digit year as one at most 50 years ahead, not a century back", async () => {
    // Thirty years ahead: the file has not changed since then, so the precondition holds.
    const ahead = new Date();
    ahead.setUTCFullYear(ahead.getUTCFullYear() + 30);
    const field = rfc850(ahead.getTime());
    const res = await get({ "if-unmodified-since": field });
    expect(res.status, field).toBe(200);
    // Sixty years ahead is more than 50: the same digits a century back, before the file changed.
    const far = new Date();
    far.setUTCFullYear(far.getUTCFullYear() + 60);
    expect((await get({ "if-unmodified-since": rfc850(far.getTime()) })).status).toBe(412);
  });
});
