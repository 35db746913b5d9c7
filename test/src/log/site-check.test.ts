import { describe, expect, it } from "vitest";
import { nonceSource } from "../../../src/log/commitment.ts";
import { decodeEntry, type LogEntry, type LoggedReview } from "../../../src/log/entries.ts";
import { planLog } from "../../../src/log/plan.ts";
import { checkSite, type ServedRecord } from "../../../src/log/site-check.ts";

const review = (id: string, rating = 5): LoggedReview => ({
  id,
  date: "2026-04-03",
  published_at: "2026-04-04T10:00:00Z",
  rating,
  author: "Paul W.",
  title: null,
  text: "Fine.",
  source: { platform: "direct", url: null },
  verification: { method: "invoice", verified_on: "2026-04-03" },
  technicians: [],
  services: [],
  service_areas: [],
  response: null,
});

const nonce = nonceSource(new Uint8Array(32).fill(9));
const PAUL = review("2026-04-03-paul-w", 1);
const ANA = review("2026-04-03-ana-b");

/** The log of `reviews` and what the site serves for it, records as /reviews.json has them. */
function site(
  reviews: LoggedReview[],
  withdrawn: Parameters<typeof planLog>[1]["withdrawn"] = [],
  prior: LogEntry[] = [],
) {
  const plan = planLog(prior, { reviews, withdrawn }, { nonce, today: "2026-11-20" });
  const entries = [...prior, ...plan.added.map((e) => decodeEntry(e))];
  const records: ServedRecord[] = reviews.map((r) => {
    const at = plan.positions.get(r.id) as { index: number; nonce: string };
    return { ...r, url: `https://x/reviews/${r.id}/`, aspects: [], log_index: at.index, log_nonce: at.nonce };
  });
  return { entries, records };
}

describe("the site against the log (site-check.ts)", () => {
  it("accepts the records the log commits to, whatever derived fields they carry", () => {
    const { entries, records } = site([PAUL, ANA]);
    expect(checkSite(entries, records)).toEqual({ problems: [], records: 2, withdrawn: 0 });
  });

  it("names a field no log entry commits to, added to a served record", () => {
    const { entries, records } = site([PAUL, ANA]);
    const served = records.map((r) => (r.id === ANA.id ? { ...r, note: "call me", extra: 1 } : r));
    expect(checkSite(entries, served).problems).toEqual([
      '2026-04-03-ana-b is served with "note", "extra", which no log entry commits to',
    ]);
  });

  it("names a review that is logged but not served, and one whose rating was changed", () => {
    const { entries, records } = site([PAUL, ANA]);
    const served = records.filter((r) => r.id !== ANA.id).map((r) => ({ ...r, rating: 5 }));
    expect(checkSite(entries, served).problems).toEqual([
      "2026-04-03-paul-w (served with rating 5) does not match log entry 1: the record served is not the one logged (rewritten?)",
      "2026-04-03-ana-b is in the log (entry 0, published) but not served: silently removed?",
    ]);
  });

  it("refuses a withdrawn review served, an old version served, and a wrong nonce", () => {
    const first = site([PAUL, ANA]);
    const withdrawn = site([ANA], [{ id: PAUL.id, reason: "author-request", date: "2026-11-01" }], first.entries);
    expect(checkSite(withdrawn.entries, withdrawn.records)).toEqual({ problems: [], records: 1, withdrawn: 1 });
    expect(
      checkSite(withdrawn.entries, [...withdrawn.records, first.records.find((r) => r.id === PAUL.id) as ServedRecord])
        .problems,
    ).toEqual(["2026-04-03-paul-w is served, but it was withdrawn (log entry 2, 2026-11-01)"]);
    const amended = site([{ ...PAUL, text: "Fine, really." }, ANA], [], first.entries);
    expect(checkSite(amended.entries, first.records).problems).toEqual([
      "2026-04-03-paul-w is served as log entry 1, but its latest entry is 2 (amended): an old version is served",
    ]);
    const wrongNonce = first.records.map((r) => ({ ...r, log_nonce: Buffer.alloc(32).toString("base64") }));
    expect(checkSite(first.entries, wrongNonce).problems).toHaveLength(2);
  });

  it("names a record no canonical JSON can be written for (a number past the doubles, a lone surrogate), instead of throwing", () => {
    const { entries, records } = site([PAUL, ANA]);
    // What JSON.parse gives for "rating": 1e400 and "text": "\ud800".
    const served = records.map((r) =>
      r.id === PAUL.id ? { ...r, rating: Number.POSITIVE_INFINITY } : { ...r, text: "\ud800" },
    );
    expect(checkSite(entries, served).problems).toEqual([
      "2026-04-03-paul-w is served as a record RFC 8785 cannot write as JSON (Infinity is not allowed), so it cannot open log entry 1",
      "2026-04-03-ana-b is served as a record RFC 8785 cannot write as JSON (Lone surrogate is not allowed), so it cannot open log entry 0",
    ]);
  });

  it('names a record with a "__proto__" member nested in a logged field: text the log never saw', () => {
    const { entries, records } = site([PAUL, ANA]);
    // JSON.parse of a served /reviews.json makes "__proto__" an own member, as any other name.
    const served = records.map((r) =>
      r.id === ANA.id
        ? {
            ...r,
            verification: JSON.parse(
              '{"__proto__":{"note":"seen in person"},"method":"invoice","verified_on":"2026-04-03"}',
            ),
          }
        : r,
    );
    expect(checkSite(entries, served).problems).toEqual([
      "2026-04-03-ana-b (served with rating 5) does not match log entry 0: the record served is not the one logged (rewritten?)",
    ]);
  });

  it("names aspects that carry more than {id, sentiment, score, source}: a derived field is no place for text", () => {
    const { entries, records } = site([PAUL, ANA]);
    const aspect = { id: "staff", sentiment: "negative", score: -0.8, source: "machine" };
    const served = records.map((r) =>
      r.id === ANA.id
        ? { ...r, aspects: [{ ...aspect, quote: "The doctor overbills everyone." }] }
        : { ...r, aspects: "The doctor overbills everyone." },
    );
    expect(checkSite(entries, served).problems).toEqual([
      "2026-04-03-paul-w is served with aspects that are not a list of {id, sentiment, score, source}: what the log never saw is served beside the record",
      "2026-04-03-ana-b is served with aspects that are not a list of {id, sentiment, score, source}: what the log never saw is served beside the record",
    ]);
    const honest = records.map((r) => ({ ...r, aspects: [aspect] }));
    expect(checkSite(entries, honest).problems).toEqual([]);
  });
});
