import type { SearchResult } from "../api/schemas.ts";
import type { ReviewRecord, ReviewsDataset } from "../content/records.ts";
import { type Bitset, select, wordsFor } from "./bitset.ts";
import { type SearchQuery, searchText } from "./query.ts";
import { createTextIndex } from "./text-index.ts";

/**
 * Each record's text as the word index reads it, made once per record. Records are immutable, and
 * the server keeps a review's record from one build to the next while its bytes are unchanged
 * (sidecar/build/dataset-parse.ts), so a rebuilt index normalises only what changed.
 */
const normalized = new WeakMap<ReviewRecord, string>();

function normalizedText(r: ReviewRecord): string {
  let text = normalized.get(r);
  if (text === undefined) {
    text = searchText(r.text);
    normalized.set(r, text);
  }
  return text;
}

/**
 * In-memory index over a dataset's reviews. Reviews sit in one array in the canonical order
 * (newest first), so a date range is a range of positions found by binary search, and every other
 * filter is a bitset of positions (`bitset.ts`): a search ANDs one bitset per filter over the
 * range, counts, and reads the page's positions off the result. The substring filter's bitset
 * comes from the word index (`text-index.ts`), which reads texts only to verify phrases.
 */

export type { SearchResult };

export interface SearchIndex {
  readonly dataset: ReviewsDataset;
  readonly size: number;
  byId(id: string): ReviewRecord | undefined;
  /** Position of the first review dated strictly before `date` (reviews are date-descending). */
  countOnOrAfter(date: string): number;
  search(q: SearchQuery, baseUrl: string): SearchResult;
  /** Bytes held by the filter bitsets and the word index (not the reviews themselves). */
  readonly indexBytes: number;
}

export function createSearchIndex(dataset: ReviewsDataset): SearchIndex {
  const reviews = dataset.reviews;
  const n = reviews.length;
  const words = wordsFor(n);
  const dates = reviews.map((r) => r.date);
  const ids = new Map<string, number>();
  const rating = new Map<number, Bitset>();
  const tech = new Map<string, Bitset>();
  const svc = new Map<string, Bitset>();
  // Keys "billing" (any sentiment) and "billing:negative".
  const aspect = new Map<string, Bitset>();
  const add = <K>(m: Map<K, Bitset>, k: K, i: number) => {
    let bits = m.get(k);
    if (!bits) {
      bits = new Uint32Array(words);
      m.set(k, bits);
    }
    bits[i >>> 5] = (bits[i >>> 5] as number) | (1 << (i & 31));
  };
  const texts: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const r = reviews[i] as ReviewRecord;
    ids.set(r.id, i);
    add(rating, r.rating, i);
    for (const t of r.technicians) add(tech, t, i);
    for (const s of r.services) add(svc, s, i);
    for (const a of r.aspects) {
      add(aspect, a.id, i);
      add(aspect, `${a.id}:${a.sentiment}`, i);
    }
    texts[i] = normalizedText(r);
  }
  const text = createTextIndex(texts);
  const empty: Bitset = new Uint32Array(words);
  // At-least-k sets, precomputed because min_rating is a common filter.
  const atLeast = [1, 2, 3, 4, 5].map((k) => {
    const bits = new Uint32Array(words);
    for (const [r, set] of rating)
      if (r >= k) for (let w = 0; w < words; w++) bits[w] = (bits[w] as number) | (set[w] as number);
    return bits;
  });
  const scratch = new Uint32Array(words);
  const bitsets = [rating, tech, svc, aspect].reduce((s, m) => s + m.size, atLeast.length + 2);

  /** First position whose date is < `date` (dates descend). */
  const firstBefore = (date: string): number => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((dates[mid] as string) >= date) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  /** First position whose date is <= `date`. */
  const firstOnOrBefore = (date: string): number => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((dates[mid] as string) > date) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  return {
    dataset,
    size: n,
    indexBytes: bitsets * words * 4 + text.indexBytes,
    byId: (id) => {
      const i = ids.get(id);
      return i === undefined ? undefined : reviews[i];
    },
    countOnOrAfter: (date) => firstBefore(date),
    search(q, baseUrl) {
      const lo = q.until ? firstOnOrBefore(q.until) : 0;
      const hi = q.since ? firstBefore(q.since) : n;
      const sets: Bitset[] = [];
      if (q.rating !== undefined) sets.push(rating.get(q.rating) ?? empty);
      if (q.min_rating !== undefined) sets.push(atLeast[Math.ceil(q.min_rating) - 1] as Bitset);
      if (q.technician) sets.push(tech.get(q.technician) ?? empty);
      if (q.service) sets.push(svc.get(q.service) ?? empty);
      if (q.aspect) sets.push(aspect.get(q.sentiment ? `${q.aspect}:${q.sentiment}` : q.aspect) ?? empty);
      if (q.query) sets.push(text.matches(q.query));

      let total: number;
      const page: ReviewRecord[] = [];
      if (sets.length > 0) {
        const sel = select(sets, lo, hi, q.offset, q.limit, scratch);
        total = sel.total;
        for (const i of sel.page) page.push(reviews[i] as ReviewRecord);
      } else {
        total = Math.max(0, hi - lo);
        const end = Math.min(hi, lo + q.offset + q.limit);
        for (let i = lo + q.offset; i < end; i++) page.push(reviews[i] as ReviewRecord);
      }
      let next: string | null = null;
      if (q.offset + q.limit < total) {
        const params = new URLSearchParams(q.canonical);
        params.set("offset", String(q.offset + q.limit));
        next = `${baseUrl}/api/reviews/search?${params.toString()}`;
      }
      return { reviews: page, count: page.length, total, limit: q.limit, offset: q.offset, next };
    },
  };
}
