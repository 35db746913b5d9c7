import { describe, expect, it } from "vitest";
import { decodeEntry, type LoggedReview } from "../../../src/log/entries.ts";
import { planLog } from "../../../src/log/plan.ts";

const review = (id: string, published_at: string, text = "Helpful visit."): LoggedReview => ({
  id,
  date: published_at.slice(0, 10),
  published_at,
  rating: 5,
  author: "A. B.",
  title: null,
  text,
  source: { platform: "direct", url: null },
  verification: { method: "invoice", verified_on: published_at.slice(0, 10) },
  technicians: [],
  services: [],
  service_areas: [],
  response: null,
});

const A = review("2024-01-02-a", "2024-01-03T10:00:00Z");
const B = review("2024-01-01-b", "2024-01-02T10:00:00Z");
const events = (added: Uint8Array[]) => added.map((e) => decodeEntry(e)).map((e) => `${e.event} ${e.id}`);

describe("what a build appends (plan.ts)", () => {
  it("publishes new reviews in published_at order and indexes every record", () => {
    const plan = planLog([], { reviews: [A, B], withdrawn: [] });
    expect(events(plan.added)).toEqual(["published 2024-01-01-b", "published 2024-01-02-a"]);
    expect(plan.indexOf).toEqual(
      new Map([
        [B.id, 0],
        [A.id, 1],
      ]),
    );
    expect(plan.everPublished).toBe(2);
  });

  it("appends nothing for unchanged content, an amended entry for a change, and keeps the old entry", () => {
    const first = planLog([], { reviews: [A, B], withdrawn: [] }).added;
    expect(planLog(first, { reviews: [B, A], withdrawn: [] }).added).toEqual([]);
    const edited = planLog(first, { reviews: [{ ...A, text: "Helpful visit!" }, B], withdrawn: [] });
    expect(events(edited.added)).toEqual(["amended 2024-01-02-a"]);
    expect(edited.indexOf.get(A.id)).toBe(2);
    expect(edited.size).toBe(3);
  });

  it("logs a withdrawal once, a changed reason again, and a restored review as published", () => {
    const first = planLog([], { reviews: [A, B], withdrawn: [] }).added;
    const w = { id: A.id, reason: "author-request" as const, date: "2024-02-01" };
    const withdrawn = planLog(first, { reviews: [B], withdrawn: [w] });
    expect(events(withdrawn.added)).toEqual(["withdrawn 2024-01-02-a"]);
    expect(withdrawn.indexOf.has(A.id)).toBe(false);
    expect(withdrawn.withdrawnNow).toBe(1);
    const log = [...first, ...withdrawn.added];
    expect(planLog(log, { reviews: [B], withdrawn: [w] }).added).toEqual([]);
    expect(events(planLog(log, { reviews: [B], withdrawn: [{ ...w, reason: "unrelated" }] }).added)).toEqual([
      "withdrawn 2024-01-02-a",
    ]);
    const restored = planLog(log, { reviews: [A, B], withdrawn: [] });
    expect(events(restored.added)).toEqual(["published 2024-01-02-a"]);
    expect(restored.withdrawnNow).toBe(0);
    // Once withdrawn, the file may go: the log already says what became of the review.
    expect(planLog(log, { reviews: [B], withdrawn: [] }).deleted).toEqual([]);
  });

  it("reports a logged review whose file is gone, with the date that names its file", () => {
    const first = planLog([], { reviews: [A, B], withdrawn: [] }).added;
    expect(planLog(first, { reviews: [B], withdrawn: [] }).deleted).toEqual([
      { id: A.id, index: 1, date: "2024-01-03" },
    ]);
  });

  it("logs a review withdrawn before it was ever published, so every withdrawal is counted", () => {
    const plan = planLog([], { reviews: [B], withdrawn: [{ id: A.id, reason: "false-or-fake", date: "2024-02-01" }] });
    expect(events(plan.added)).toEqual(["published 2024-01-01-b", "withdrawn 2024-01-02-a"]);
    expect(plan.withdrawals).toEqual([{ id: A.id, reason: "false-or-fake", date: "2024-02-01", index: 1 }]);
    expect(plan.everPublished).toBe(1);
  });
});
