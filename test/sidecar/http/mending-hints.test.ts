import path from "node:path";
import { describe, expect, it } from "vitest";
import { servedBuild } from "../../helpers/served-build.ts";

/**
 * A refusal that can tell how to mend the value says so: a number in the query string is a JSON
 * number literal (docs/api.md), so `limit=010` is refused and told to write 10, which is in the
 * range the message states; a since/{date} written another way than YYYY-MM-DD is told what to
 * write, as search's since and until are.
 */
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const BASE = "https://reviews.example";
const served = servedBuild(FIXTURE, BASE);

async function issues(query: string) {
  const res = await fetch(`${served.app.url}/api/reviews/search?${query}`);
  expect(res.status).toBe(400);
  return ((await res.json()) as { issues: { path: string; value: unknown; message: string }[] }).issues;
}

describe("a search number written as no JSON number", () => {
  it.each([
    ["limit", "010", 'expected an integer from 1 to 100, written as a JSON number: 10, not "010"'],
    ["offset", "0x10", 'expected an integer from 0 to 9007199254740991, written as a JSON number: 16, not "0x10"'],
    ["rating", "5.", 'expected an integer from 1 to 5, written as a JSON number: 5, not "5."'],
    ["min_rating", "04.5", 'expected a number from 1 to 5, written as a JSON number: 4.5, not "04.5"'],
  ])("%s=%s is told how to write it", async (name, value, message) => {
    expect(await issues(`${name}=${encodeURIComponent(value)}`)).toEqual([{ path: name, value, message }]);
  });

  it("keeps the plain message for text that is no number at all, and for a number out of range", async () => {
    expect((await issues("limit=ten"))[0]?.message).toBe("expected an integer from 1 to 100");
    expect((await issues("limit=101"))[0]?.message).toBe("expected an integer from 1 to 100");
  });

  it("names no JSON number to write that would be refused in turn", async () => {
    // 0.5 is no integer, 200 and 2^69 are past the range: the hint would send the client round again.
    for (const [name, value] of [
      ["limit", ".5"],
      ["limit", "0200"],
      ["offset", "0x1fffffffffffffffff"],
      ["min_rating", "+0.5"],
    ] as const) {
      const [issue] = await issues(`${name}=${encodeURIComponent(value)}`);
      expect(issue?.message, `${name}=${value}`).not.toMatch(/written as/);
    }
  });
});

async function dateIssue(url: string) {
  const res = await fetch(`${served.app.url}${url}`);
  expect(res.status).toBe(400);
  const body = (await res.json()) as { issues: { path: string; message: string }[] };
  return body.issues.find((i) => i.path === "date" || i.path === "since")?.message;
}

describe("since/{date} in another form than YYYY-MM-DD", () => {
  it.each(["2026-1-5", "2026-01-05T00:00:00Z", "Jan 5, 2026"])("%s gets search's hint", async (date) => {
    const hint = await dateIssue(`/api/reviews/since/${encodeURIComponent(date)}`);
    expect(hint).toBe("expected a date as YYYY-MM-DD — write 2026-01-05 instead");
    expect(hint).toBe(await dateIssue(`/api/reviews/search?since=${encodeURIComponent(date)}`));
  });

  it.each([" 2026-01-05", "2026-01-05\n", "2026-01-05 "])(
    "%j, the right date with space around it, is told to write it alone",
    async (date) => {
      const hint = await dateIssue(`/api/reviews/since/${encodeURIComponent(date)}`);
      expect(hint).toBe("expected a date as YYYY-MM-DD — write 2026-01-05 instead");
      expect(hint).toBe(await dateIssue(`/api/reviews/search?since=${encodeURIComponent(date)}`));
    },
  );

  it("says what a real date is when nothing can be told", async () => {
    expect(await dateIssue("/api/reviews/since/yesterday")).toBe(
      "expected a real calendar date as YYYY-MM-DD, e.g. 2024-01-05",
    );
  });
});
