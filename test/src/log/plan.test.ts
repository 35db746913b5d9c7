import { describe, expect, it } from "vitest";
import { commitment, nonceSource } from "../../../src/log/commitment.ts";
import { decodeEntry, type LogEntry, type LoggedReview } from "../../../src/log/entries.ts";
import { LogDateError, planLog } from "../../../src/log/plan.ts";

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
const nonce = nonceSource(new Uint8Array(32).fill(3));
const opts = { nonce, today: "2026-11-20" };
const decode = (added: Uint8Array[]) => added.map((e) => decodeEntry(e));
const events = (added: Uint8Array[]) => decode(added).map((e) => `${e.event} ${e.id}`);
const plan = (
  prior: LogEntry[],
  reviews: LoggedReview[],
  withdrawn: Parameters<typeof planLog>[1]["withdrawn"] = [],
  today = opts.today,
) => planLog(prior, { reviews, withdrawn }, { nonce, today });

describe("what a build appends (plan.ts)", () => {
  it("publishes new reviews in published_at order, each entry a commitment the record opens", () => {
    const p = plan([], [A, B]);
    expect(events(p.added)).toEqual(["published 2024-01-01-b", "published 2024-01-02-a"]);
    expect(p.positions.get(B.id)?.index).toBe(0);
    expect(p.positions.get(A.id)?.index).toBe(1);
    const [first] = decode(p.added);
    expect(first).toEqual({
      event: "published",
      id: B.id,
      logged: "2026-11-20",
      commitment: commitment(Buffer.from(p.positions.get(B.id)?.nonce ?? "", "base64"), B),
    });
    // No text, title or author in any entry.
    const bytes = Buffer.concat(p.added).toString();
    for (const secret of ["Helpful visit", "A. B."]) expect(bytes).not.toContain(secret);
  });

  it("derives different nonces per entry and per key, the same for the same key", () => {
    expect(Buffer.from(nonce(0))).toEqual(Buffer.from(nonceSource(new Uint8Array(32).fill(3))(0)));
    expect(Buffer.from(nonce(0))).not.toEqual(Buffer.from(nonce(1)));
    expect(Buffer.from(nonce(0))).not.toEqual(Buffer.from(nonceSource(new Uint8Array(32).fill(4))(0)));
    expect(nonce(0)).toHaveLength(32);
  });

  it("appends nothing for unchanged content, an amended entry for a change, and keeps the old entry", () => {
    const first = decode(plan([], [A, B]).added);
    expect(plan(first, [B, A]).added).toEqual([]);
    const edited = plan(first, [{ ...A, text: "Helpful visit!" }, B]);
    expect(events(edited.added)).toEqual(["amended 2024-01-02-a"]);
    expect(edited.positions.get(A.id)?.index).toBe(2);
    // The feeds date an entry's last change from the log: the amendment's day, not the first publication's.
    expect(plan(first, [A, B]).changedOn).toEqual(new Map());
    expect(plan(first, [{ ...A, text: "Helpful visit!" }, B], [], "2026-12-01").changedOn).toEqual(
      new Map([[A.id, "2026-12-01"]]),
    );
    expect(edited.counts).toEqual({ published: 2, amended: 1, withdrawn: 0, restored: 0 });
  });

  it("logs a withdrawal once, a changed reason again, and a review back on the list as restored", () => {
    const first = decode(plan([], [A, B]).added);
    const w = { id: A.id, reason: "author-request" as const, date: "2024-02-01" };
    const withdrawn = plan(first, [B], [w]);
    expect(decode(withdrawn.added)).toEqual([{ event: "withdrawn", ...w, logged: "2026-11-20" }]);
    expect(withdrawn.positions.has(A.id)).toBe(false);
    expect(withdrawn.withdrawnNow).toEqual([{ ...w, index: 2, leftOn: "2026-11-20" }]);
    const log = [...first, ...decode(withdrawn.added)];
    expect(plan(log, [B], [w]).added).toEqual([]);
    const relogged = plan(log, [B], [{ ...w, reason: "unrelated" }], "2026-11-28");
    expect(events(relogged.added)).toEqual(["withdrawn 2024-01-02-a"]);
    // It left the list with its first withdrawal: a changed reason is no new departure.
    expect(relogged.withdrawnNow[0]?.leftOn).toBe("2026-11-20");
    const restored = plan(log, [A, B]);
    expect(events(restored.added)).toEqual(["restored 2024-01-02-a"]);
    expect(restored.withdrawnNow).toEqual([]);
    expect(plan(log, [A, B], [], "2026-11-25").changedOn).toEqual(new Map([[A.id, "2026-11-25"]]));
    // The counts add up to the entries.
    expect(restored.counts).toEqual({ published: 2, amended: 0, withdrawn: 1, restored: 1 });
    expect(restored.size).toBe(4);
    // Once withdrawn, the file may go: the log already says what became of the review.
    expect(plan(log, [B]).deleted).toEqual([]);
  });

  it("reports a logged review whose file is gone", () => {
    const first = decode(plan([], [A, B]).added);
    expect(plan(first, [B]).deleted).toEqual([{ id: A.id, index: 1 }]);
  });

  it("logs a review withdrawn before it was ever published, so every withdrawal is counted", () => {
    const p = plan([], [B], [{ id: A.id, reason: "false-or-fake", date: "2024-02-01" }]);
    expect(events(p.added)).toEqual(["published 2024-01-01-b", "withdrawn 2024-01-02-a"]);
    expect(p.withdrawals).toEqual([{ id: A.id, reason: "false-or-fake", date: "2024-02-01", index: 1 }]);
    expect(p.everPublished).toBe(1);
    // It was never on the list, so it never left it.
    expect(p.withdrawnNow).toEqual([{ id: A.id, reason: "false-or-fake", date: "2024-02-01", index: 1 }]);
  });

  it("logs a review withdrawn before it was ever published, then put on the list, as published, and counts it", () => {
    const w = { id: A.id, reason: "false-or-fake" as const, date: "2024-02-01" };
    const log = decode(plan([], [B], [w]).added);
    const back = plan(log, [A, B]);
    expect(events(back.added)).toEqual(["published 2024-01-02-a"]);
    expect(back.everPublished).toBe(2);
    expect(back.counts).toEqual({ published: 2, amended: 0, withdrawn: 1, restored: 0 });
    // A first appearance is no change after publication: the feeds date it by published_at.
    expect(back.changedOn).toEqual(new Map());
    // Withdrawn again and back: now it was on the list, so it is restored.
    const again = [...log, ...decode(back.added), ...decode(plan([...log, ...decode(back.added)], [B], [w]).added)];
    expect(events(plan(again, [A, B]).added)).toEqual(["restored 2024-01-02-a"]);
  });

  it("counts a review as published in a log that logged its first appearance as restored", () => {
    // Logs written before the first appearance was logged as published hold this, and stay as they are.
    const w = { id: A.id, reason: "false-or-fake" as const, date: "2024-02-01" };
    const log = decode(plan([], [B], [w]).added);
    const old: LogEntry = { ...decode(plan(log, [A, B]).added)[0], event: "restored" } as LogEntry;
    const p = plan([...log, old], [A, B]);
    expect(p.added).toEqual([]);
    expect(p.everPublished).toBe(2);
    expect(p.counts).toEqual({ published: 1, amended: 0, withdrawn: 1, restored: 1 });
  });

  it("refuses to log on a day before the log's last entry, but a build with nothing to log passes", () => {
    const first = decode(plan([], [A, B]).added);
    expect(() => plan(first, [A, B, review("2024-05-05-c", "2024-05-05T10:00:00Z")], [], "2026-11-19")).toThrow(
      LogDateError,
    );
    expect(() => plan(first, [A, B, review("2024-05-05-c", "2024-05-05T10:00:00Z")], [], "2026-11-19")).toThrow(
      /last entry was logged on 2026-11-20, and this build would log on 2026-11-19/,
    );
    expect(plan(first, [A, B], [], "2026-11-19").added).toEqual([]);
    expect(
      decode(plan(first, [A, B, review("2024-05-05-c", "2024-05-05T10:00:00Z")], [], "2026-11-21").added)[0]?.logged,
    ).toBe("2026-11-21");
  });
});
