import {
  type ReviewRecord,
  ReviewRecordSchema,
  type ReviewsDataset,
  ReviewsDatasetSchema,
} from "../../src/content/records.ts";
import { parseDistJson } from "../../src/io/dist-files.ts";

/**
 * Reads a build's `/reviews.json`, taking from the build served before it every review whose bytes
 * are the same. Only the reviews that changed are parsed and checked against the schema. Parsing
 * and checking all 10,000 reviews took 0.1–0.2 s of each save's critical path under `npm start`:
 * the server reads the file while the build finishes (`prepareDataset`), and nothing goes live
 * before it has.
 *
 * The file's layout is the one src/site/dataset-json.ts writes: `JSON.stringify(dataset, null, 2)`,
 * `reviews` last, each review an object at an indent of four spaces. A JSON string holds no raw
 * line break, and a review's own members sit deeper, so a line of exactly four spaces and `{` or
 * `}` opens or closes a review. Same bytes give the same parsed value, so a review kept is exactly
 * what parsing it again would give. The rest of the file (the business, the aggregate, the aspects)
 * is always parsed and checked. A file of any other layout, and any problem, go the plain way
 * (`parseDistJson`), which also words every error.
 */

/** The build served before: its dataset, parsed from exactly `body`. */
export interface PreviousDataset {
  body: Uint8Array;
  dataset: ReviewsDataset;
}

const REVIEWS_KEY = Buffer.from('\n  "reviews": [');
const OPEN = Buffer.from("\n    {");
const CLOSE = Buffer.from("\n    }");
const TAIL = Buffer.from("\n  ]\n}\n");
const ID_PREFIX = Buffer.from('{\n      "id": "');
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A review's bytes in the file (from its `{` to its `}`) and its id. */
interface Segment {
  start: number;
  end: number;
  id: string;
}

/** Where the head ends (just after `"reviews": [`) and each review's bytes; undefined for any other layout. */
function segmentsOf(bytes: Buffer): { headEnd: number; reviews: Segment[] } | undefined {
  const key = bytes.indexOf(REVIEWS_KEY);
  if (key < 0) return undefined;
  const headEnd = key + REVIEWS_KEY.length;
  const reviews: Segment[] = [];
  let at = headEnd;
  for (;;) {
    if (!bytes.subarray(at, at + OPEN.length).equals(OPEN)) return undefined;
    const start = at + OPEN.length - 1; // the `{`
    const close = bytes.indexOf(CLOSE, start);
    if (close < 0) return undefined;
    const end = close + CLOSE.length; // just after the `}`
    const id = idOf(bytes, start);
    if (id === undefined) return undefined;
    reviews.push({ start, end, id });
    if (bytes[end] === COMMA) {
      at = end + 1;
      continue;
    }
    return end + TAIL.length === bytes.length && bytes.subarray(end).equals(TAIL) ? { headEnd, reviews } : undefined;
  }
}

/** The review's id when its first member is `"id"` with a plain string (no escapes). */
function idOf(bytes: Buffer, start: number): string | undefined {
  if (!bytes.subarray(start, start + ID_PREFIX.length).equals(ID_PREFIX)) return undefined;
  const from = start + ID_PREFIX.length;
  const to = bytes.indexOf(QUOTE, from);
  if (to < 0 || bytes.subarray(from, to).includes(BACKSLASH)) return undefined;
  return bytes.toString("utf8", from, to);
}

/** The reviews of the file, kept from `previous` where the bytes match; undefined to go the plain way. */
function reviewsReusing(
  bytes: Buffer,
  reviews: readonly Segment[],
  previous: PreviousDataset,
): ReviewRecord[] | undefined {
  const before = Buffer.from(previous.body.buffer, previous.body.byteOffset, previous.body.byteLength);
  const old = segmentsOf(before);
  if (!old || old.reviews.length !== previous.dataset.reviews.length) return undefined;
  const kept = new Map<string, { segment: Segment; record: ReviewRecord }>();
  old.reviews.forEach((segment, i) => {
    kept.set(segment.id, { segment, record: previous.dataset.reviews[i] as ReviewRecord });
  });
  const out: ReviewRecord[] = [];
  for (const s of reviews) {
    const k = kept.get(s.id);
    if (k && before.subarray(k.segment.start, k.segment.end).equals(bytes.subarray(s.start, s.end))) {
      out.push(k.record);
      continue;
    }
    const parsed = ReviewRecordSchema.safeParse(JSON.parse(bytes.toString("utf8", s.start, s.end)));
    if (!parsed.success) return undefined;
    out.push(parsed.data);
  }
  return out;
}

const HeadSchema = ReviewsDatasetSchema.omit({ reviews: true });

/**
 * `/reviews.json` of the build in `dir`, parsed and checked (`parseDistJson`'s errors), its
 * unchanged reviews taken from `previous`.
 */
export function parseDataset(dir: string, body: Uint8Array | undefined, previous?: PreviousDataset): ReviewsDataset {
  const plain = () => parseDistJson(dir, "/reviews.json", body, ReviewsDatasetSchema);
  if (!body || !previous) return plain();
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  try {
    const layout = segmentsOf(bytes);
    if (!layout) return plain();
    const head = HeadSchema.safeParse(JSON.parse(`${bytes.toString("utf8", 0, layout.headEnd)}]}`));
    const reviews = head.success ? reviewsReusing(bytes, layout.reviews, previous) : undefined;
    if (!head.success || !reviews) return plain();
    return { ...head.data, reviews };
  } catch {
    // Not JSON where the layout said a review was: the plain way words the error.
    return plain();
  }
}
