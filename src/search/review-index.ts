import type { SearchResult } from "../api/schemas.ts";
import type { ReviewRecord, ReviewsDataset } from "../content/records.ts";
import { normalizeText, type SearchQuery } from "./query.ts";

/**
 * In-memory index over a dataset's reviews. Reviews sit in one array in the canonical order
 * (newest first), so every posting list is a sorted array of positions and intersections keep that
 * order for free. Filters are answered from postings; only the substring filter reads text, and
 * then only for candidates that contain every trigram of the query. The reviews a substring
 * matches are remembered per index, so a repeated phrase is a posting list like any other filter.
 */

export type { SearchResult };

type Postings = Int32Array;

export interface SearchIndex {
  readonly dataset: ReviewsDataset;
  readonly size: number;
  byId(id: string): ReviewRecord | undefined;
  /** Position of the first review dated strictly before `date` (reviews are date-descending). */
  countOnOrAfter(date: string): number;
  search(q: SearchQuery, baseUrl: string): SearchResult;
}

const GRAM = 3;
/**
 * Substrings whose matches an index remembers, least recently used dropped first. Verifying a
 * common phrase reads the text of every candidate: about 10 ms at 100,000 reviews, the one search
 * cost that grows with the dataset (docs/benchmarks.md), while a public search sees the same few
 * phrases again and again. At most 64 lists of at most 4 bytes per review: 26 MB at 100,000.
 */
const MATCH_MEMO_SIZE = 64;

function trigramKeys(text: string, into: Set<number>): void {
  for (let i = 0; i + GRAM <= text.length; i++) {
    into.add(text.charCodeAt(i) * 4294967296 + text.charCodeAt(i + 1) * 65536 + text.charCodeAt(i + 2));
  }
}

function toPostings(lists: Map<string | number, number[]>): Map<string | number, Postings> {
  const out = new Map<string | number, Postings>();
  for (const [k, v] of lists) out.set(k, Int32Array.from(v));
  return out;
}

function intersect(a: Postings, b: Postings): Postings {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, n);
}

/** Index of the first element >= `x` in a sorted list. */
function lowerBound(list: Postings, x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function union(lists: Postings[]): Postings {
  const all = new Int32Array(lists.reduce((s, l) => s + l.length, 0));
  let n = 0;
  for (const l of lists) {
    all.set(l, n);
    n += l.length;
  }
  return all.sort();
}

export function createSearchIndex(dataset: ReviewsDataset): SearchIndex {
  const reviews = dataset.reviews;
  const n = reviews.length;
  const dates = reviews.map((r) => r.date);
  const ids = new Map<string, number>();
  const texts: string[] = new Array(n);
  const rating = new Map<string | number, number[]>();
  const tech = new Map<string | number, number[]>();
  const svc = new Map<string | number, number[]>();
  // Keys "billing" (any sentiment) and "billing:negative".
  const aspect = new Map<string | number, number[]>();
  const grams = new Map<string | number, number[]>();
  const seen = new Set<number>();
  const push = (m: Map<string | number, number[]>, k: string | number, i: number) => {
    const l = m.get(k);
    if (l) l.push(i);
    else m.set(k, [i]);
  };
  for (let i = 0; i < n; i++) {
    const r = reviews[i] as ReviewRecord;
    ids.set(r.id, i);
    push(rating, r.rating, i);
    for (const t of r.technicians) push(tech, t, i);
    for (const s of r.services) push(svc, s, i);
    for (const a of r.aspects) {
      push(aspect, a.id, i);
      push(aspect, `${a.id}:${a.sentiment}`, i);
    }
    const text = normalizeText(r.text);
    texts[i] = text;
    seen.clear();
    trigramKeys(text, seen);
    for (const g of seen) push(grams, g, i);
  }
  const ratingP = toPostings(rating);
  const techP = toPostings(tech);
  const svcP = toPostings(svc);
  const aspectP = toPostings(aspect);
  const gramP = toPostings(grams);
  grams.clear();
  const empty = new Int32Array(0);
  // At-least-k lists, precomputed because min_rating is a common filter.
  const atLeast = [1, 2, 3, 4, 5].map((k) =>
    union([5, 4, 3, 2, 1].filter((r) => r >= k).map((r) => ratingP.get(r) ?? empty)),
  );

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

  const substringCandidates = (q: string): Postings | null => {
    if (q.length < GRAM) return null;
    const keys = new Set<number>();
    trigramKeys(q, keys);
    const lists = [...keys].map((k) => gramP.get(k) ?? empty).sort((a, b) => a.length - b.length);
    let acc = lists[0] as Postings;
    for (let i = 1; i < lists.length && acc.length > 0; i++) acc = intersect(acc, lists[i] as Postings);
    return acc;
  };

  const matchMemo = new Map<string, Postings>();
  /** Positions of every review whose text contains `needle`. */
  const textMatches = (needle: string): Postings => {
    const known = matchMemo.get(needle);
    if (known) {
      matchMemo.delete(needle);
      matchMemo.set(needle, known);
      return known;
    }
    const found: number[] = [];
    const candidates = substringCandidates(needle);
    if (candidates) {
      for (const i of candidates) if ((texts[i] as string).includes(needle)) found.push(i);
    } else {
      for (let i = 0; i < n; i++) if ((texts[i] as string).includes(needle)) found.push(i);
    }
    const list = Int32Array.from(found);
    matchMemo.set(needle, list);
    if (matchMemo.size > MATCH_MEMO_SIZE) matchMemo.delete(matchMemo.keys().next().value as string);
    return list;
  };

  return {
    dataset,
    size: n,
    byId: (id) => {
      const i = ids.get(id);
      return i === undefined ? undefined : reviews[i];
    },
    countOnOrAfter: (date) => firstBefore(date),
    search(q, baseUrl) {
      const lo = q.until ? firstOnOrBefore(q.until) : 0;
      const hi = q.since ? firstBefore(q.since) : n;
      const lists: Postings[] = [];
      if (q.rating !== undefined) lists.push(ratingP.get(q.rating) ?? empty);
      if (q.min_rating !== undefined) lists.push(atLeast[Math.ceil(q.min_rating) - 1] as Postings);
      if (q.technician) lists.push(techP.get(q.technician) ?? empty);
      if (q.service) lists.push(svcP.get(q.service) ?? empty);
      if (q.aspect) lists.push(aspectP.get(q.sentiment ? `${q.aspect}:${q.sentiment}` : q.aspect) ?? empty);
      if (q.query) lists.push(textMatches(q.query));
      lists.sort((a, b) => a.length - b.length);
      let positions: Postings | null = null;
      for (const l of lists) positions = positions ? intersect(positions, l) : l;

      // Every filter is now an exact posting list: the range bounds answer the rest without a scan.
      const from = positions ? lowerBound(positions, lo) : lo;
      const to = positions ? lowerBound(positions, hi) : Math.max(lo, hi);
      const total = Math.max(0, to - from);
      const start = from + q.offset;
      const end = Math.min(to, start + q.limit);
      const page: ReviewRecord[] = [];
      for (let k = start; k < end; k++) page.push(reviews[positions ? (positions[k] as number) : k] as ReviewRecord);
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
