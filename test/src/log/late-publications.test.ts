import { describe, expect, it } from "vitest";
import type { LogEntry } from "../../../src/log/entries.ts";
import { latePublications } from "../../../src/log/late-publications.ts";

const C = `${"x".repeat(43)}=`;
const published = (id: string): LogEntry => ({ event: "published", id, logged: "2026-11-20", commitment: C });
const withdrawn = (id: string): LogEntry => ({
  event: "withdrawn",
  id,
  reason: "author-request",
  date: "2026-11-20",
  logged: "2026-11-20",
});
const review = (id: string, published_at: string) => ({ id, date: "2026-11-01", published_at });

describe("latePublications", () => {
  const on = review("2026-11-01-on", "2026-11-20T10:00:00Z");

  it("names a review first listed with a published_at earlier than one on the list, and no other", () => {
    const late = review("2026-11-01-late", "2026-11-19T10:00:00Z");
    const same = review("2026-11-01-same", "2026-11-20T10:00:00Z");
    const after = review("2026-11-01-after", "2026-11-20T10:00:00.5Z");
    expect(latePublications([published(on.id)], [on, late, same, after])).toEqual([{ review: late, newest: on }]);
  });

  it("compares instants, not spellings: an offset or a fraction reads as the time it names", () => {
    const offset = review("2026-11-01-offset", "2026-11-20T11:30:00+02:00");
    expect(latePublications([published(on.id)], [on, offset])).toEqual([{ review: offset, newest: on }]);
  });

  it("counts a review withdrawn before it was ever listed as first published; one put back keeps its date", () => {
    const never = review("2026-11-01-never", "2026-11-19T10:00:00Z");
    const back = review("2026-11-01-back", "2026-11-18T10:00:00Z");
    const prior = [published(back.id), withdrawn(back.id), withdrawn(never.id), published(on.id)];
    expect(latePublications(prior, [on, never, back])).toEqual([{ review: never, newest: on }]);
  });

  it("asks nothing of a new log, or of reviews that are all new", () => {
    const a = review("2026-11-01-a", "2026-11-19T10:00:00Z");
    expect(latePublications([], [on, a])).toEqual([]);
    // Withdrawn ones are not on the list: they set no bar.
    expect(latePublications([withdrawn(on.id)], [a])).toEqual([]);
  });
});
