import { ContentError } from "../content/errors.ts";
import { SENTIMENTS, type Sentiment } from "../content/records.ts";
import type { Annotator, ReviewAnnotation } from "./annotate.ts";
import { quoteOf } from "./quotes.ts";

/**
 * Measuring the per-review annotation against labelled items (`npm run eval:insights` and the
 * tests), each read as a review with its star rating by exactly the code that annotates reviews.
 *
 * File format, one item per line: `rating | gold | text`, where gold is space-separated
 * `aspect:+`, `aspect:0` or `aspect:-`, or `none`. Lines starting with `#` are comments. The text is
 * one sentence or a whole review of several sentences; either way it is read as one review with
 * that rating, and its gold is that review's reading of each aspect it discusses.
 */

export interface LabelledItem {
  line: number;
  rating: number;
  gold: Map<string, Sentiment>;
  text: string;
  /** A review's title, read as its first sentence (editors' labelled reviews have one). */
  title?: string | null;
}

const CODES: Record<string, Sentiment> = { "+": "positive", "0": "neutral", "-": "negative" };

/** Parses a labelled file; a malformed line throws `file:line: reason` as a ContentError, said in one line. */
export function parseLabelled(text: string, file: string, aspectIds: readonly string[]): LabelledItem[] {
  const items: LabelledItem[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const fail = (why: string): never => {
      throw new ContentError([`${file}:${i + 1}: ${why}, got ${JSON.stringify(line)}`]);
    };
    const parts = line.split("|").map((p) => p.trim());
    if (parts.length < 3) fail("expected rating | gold | sentence");
    const rating = Number(parts[0]);
    if (!Number.isInteger(rating) || rating < 1 || rating > 5) fail("expected a rating from 1 to 5");
    const gold = new Map<string, Sentiment>();
    for (const g of (parts[1] as string).split(/\s+/)) {
      if (g === "none") continue;
      const [id, code] = g.split(":");
      if (!id || !aspectIds.includes(id)) fail(`unknown aspect ${JSON.stringify(id)}`);
      const sentiment = CODES[code ?? ""];
      if (!sentiment) fail(`expected +, 0 or - after ${id}:`);
      gold.set(id as string, sentiment as Sentiment);
    }
    items.push({ line: i + 1, rating, gold, text: parts.slice(2).join("|") });
  });
  return items;
}

export interface Misread {
  line: number;
  text: string;
  gold: string;
  predicted: string;
  /** How wrong: 2 for an opposite polarity, 1 for a missed, extra or neutral-vs-polar aspect. */
  severity: number;
}

export interface EvalReport {
  items: number;
  /** Gold aspects the annotation also found: the pairs polarity is measured on. */
  matched: number;
  accuracy: number;
  macroF1: number;
  /** Accuracy counting an undetected gold aspect as wrong. */
  strictAccuracy: number;
  /** `confusion[gold][predicted]` over matched pairs. */
  confusion: Record<Sentiment, Record<Sentiment, number>>;
  detection: { id: string; precision: number; recall: number; tp: number; fp: number; fn: number }[];
  detectionPrecision: number;
  detectionRecall: number;
  /** Items with every label right: every gold aspect found with its polarity, none added. */
  exact: number;
  /** Aspects read as positive or negative that the gold does not name at all. */
  spuriousPolar: number;
  /**
   * The sentences the site may quote (quotes.ts `quoteOf`: the candidates for the home page's "In their
   * words", which shows the strongest three an aspect and side), and how many of them the gold
   * supports: its aspect in the gold, on the quote's side. Whether the sentence itself says it is not
   * checked, so the share is an upper bound on quotes that do not misstate.
   */
  quotes: { shown: number; right: number };
  /** The numerators and denominators of the figures above, for their intervals (`wilson`). */
  counts: { correct: number; goldPairs: number; tp: number; fp: number; fn: number };
  worst: Misread[];
  /** The first quotes the gold does not support, in file order. */
  wrongQuotes: WrongQuote[];
}

/** A sentence the site may quote as praise or a complaint of an aspect that the gold reads otherwise. */
export interface WrongQuote {
  line: number;
  quote: string;
  /** `aspect:pos` or `aspect:neg`, as the quote is shown. */
  shown: string;
  gold: string;
}

/**
 * The Wilson score interval of `k / n` (95 % by default): unlike `p ± z·√(p(1−p)/n)` it stays inside
 * [0, 1] and is honest near 0 and 1 and for small n; [0, 1] when n is 0.
 */
export function wilson(k: number, n: number, z = 1.959964): [low: number, high: number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** A proportion and its 95 % Wilson interval, as reports print it: `0.924 (0.87–0.96, n = 118)`. */
export function withInterval(k: number, n: number): string {
  const [low, high] = wilson(k, n);
  return `${(n === 0 ? 1 : k / n).toFixed(3)} (${low.toFixed(2)}–${high.toFixed(2)}, n = ${n})`;
}

const safe = (num: number, den: number) => (den === 0 ? 1 : num / den);
const describe = (m: Map<string, string>) =>
  m.size === 0 ? "none" : [...m].map(([id, s]) => `${id}:${s.slice(0, 3)}`).join(" ");
/** The id a labelled item is read under: its line, unique in its file. */
export const labelledId = (item: LabelledItem) => `line-${item.line}`;

/** A labelled sentence read as a review of its own, with its rating and no title or mentions. */
export function annotateLabelled(annotator: Annotator, item: LabelledItem): ReviewAnnotation {
  return annotator.annotate({
    id: labelledId(item),
    title: item.title ?? null,
    text: item.text,
    rating: item.rating,
    technicians: [],
    services: [],
    service_areas: [],
  });
}

export function evaluate(
  items: readonly LabelledItem[],
  annotator: Annotator,
  aspectIds: readonly string[],
  worstCount = 10,
): EvalReport {
  const zero = () => ({ positive: 0, neutral: 0, negative: 0 });
  const confusion = { positive: zero(), neutral: zero(), negative: zero() };
  const det = new Map(aspectIds.map((id) => [id, { tp: 0, fp: 0, fn: 0 }]));
  let matched = 0;
  let correct = 0;
  let goldPairs = 0;
  let exact = 0;
  let spuriousPolar = 0;
  const quotes = { shown: 0, right: 0 };
  const misreads: Misread[] = [];
  const wrongQuotes: WrongQuote[] = [];
  for (const item of items) {
    const { aspects, mentions } = annotateLabelled(annotator, item);
    const predicted = new Map(aspects.map((a) => [a.id, a.sentiment]));
    for (const a of aspects) {
      const i = aspectIds.indexOf(a.id);
      const quote = quoteOf(
        a.sentiment,
        mentions.filter((m) => m.aspect === i),
        item.rating,
      );
      if (!quote) continue;
      quotes.shown++;
      if (item.gold.get(a.id) === a.sentiment) quotes.right++;
      else if (wrongQuotes.length < worstCount)
        wrongQuotes.push({
          line: item.line,
          quote: quote.sentence,
          shown: `${a.id}:${a.sentiment.slice(0, 3)}`,
          gold: describe(item.gold),
        });
    }
    let severity = 0;
    for (const [id, gold] of item.gold) {
      goldPairs++;
      const p = predicted.get(id);
      const d = det.get(id) as { tp: number; fp: number; fn: number };
      if (p === undefined) {
        d.fn++;
        severity += 1;
        continue;
      }
      d.tp++;
      matched++;
      confusion[gold][p]++;
      if (p === gold) correct++;
      else severity += gold !== "neutral" && p !== "neutral" ? 2 : 1;
    }
    for (const [id, p] of predicted) {
      if (!item.gold.has(id)) {
        (det.get(id) as { fp: number }).fp++;
        severity += 1;
        if (p !== "neutral") spuriousPolar++;
      }
    }
    if (severity === 0) exact++;
    if (severity > 0) {
      misreads.push({
        line: item.line,
        text: item.text,
        gold: describe(item.gold),
        predicted: describe(predicted),
        severity,
      });
    }
  }
  const f1s = SENTIMENTS.map((s) => {
    const tp = confusion[s][s];
    const predictedAs = SENTIMENTS.reduce((n, g) => n + confusion[g][s], 0);
    const actual = SENTIMENTS.reduce((n, p) => n + confusion[s][p], 0);
    const precision = safe(tp, predictedAs);
    const recall = safe(tp, actual);
    return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  });
  const detection = [...det].map(([id, d]) => ({
    id,
    ...d,
    precision: safe(d.tp, d.tp + d.fp),
    recall: safe(d.tp, d.tp + d.fn),
  }));
  const sum = (k: "tp" | "fp" | "fn") => detection.reduce((n, d) => n + d[k], 0);
  return {
    items: items.length,
    matched,
    accuracy: safe(correct, matched),
    macroF1: f1s.reduce((a, b) => a + b, 0) / f1s.length,
    strictAccuracy: safe(correct, goldPairs),
    confusion,
    detection,
    detectionPrecision: safe(sum("tp"), sum("tp") + sum("fp")),
    detectionRecall: safe(sum("tp"), sum("tp") + sum("fn")),
    exact,
    spuriousPolar,
    quotes,
    counts: { correct, goldPairs, tp: sum("tp"), fp: sum("fp"), fn: sum("fn") },
    // Worst first; file order breaks ties so the list is stable.
    worst: misreads.sort((a, b) => b.severity - a.severity || a.line - b.line).slice(0, worstCount),
    wrongQuotes,
  };
}

/** A review an editor labelled: what the annotator reads, and the editor's `aspects:` map. */
export interface EditorLabelled {
  review: Parameters<Annotator["annotate"]>[0];
  labels: Readonly<Record<string, Sentiment>>;
}

export interface AgreementReport {
  reviews: number;
  /** Editor labels, one per (review, aspect). */
  labels: number;
  /** Labels the machine read with the same polarity. */
  agreed: number;
  /** `agreed / labels` (1 when there are none). */
  agreement: number;
  /** Labelled aspects the machine did not find at all. */
  missed: number;
  /** Aspects the machine found that the editor left out of a labelled review. */
  extra: number;
  /** Every disagreement: `review id: aspect: editor X, machine Y`. */
  differences: string[];
}

/**
 * How often the machine's reading agrees with the labels editors confirmed in the content
 * (`aspects:` in review files): an editor's label is the truth of that review, so this is a
 * measure on real reviews that no tuning wrote.
 */
export function editorAgreement(labelled: readonly EditorLabelled[], annotator: Annotator): AgreementReport {
  let labels = 0;
  let agreed = 0;
  let missed = 0;
  let extra = 0;
  const differences: string[] = [];
  for (const { review, labels: want } of labelled) {
    const read = new Map(annotator.annotate(review).aspects.map((a) => [a.id, a.sentiment]));
    for (const [id, sentiment] of Object.entries(want).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      labels++;
      const got = read.get(id);
      if (got === sentiment) agreed++;
      else {
        if (got === undefined) missed++;
        differences.push(`${review.id}: ${id}: editor ${sentiment}, machine ${got ?? "not found"}`);
      }
    }
    for (const id of read.keys()) {
      if (!(id in want)) {
        extra++;
        differences.push(`${review.id}: ${id}: editor none, machine ${read.get(id)}`);
      }
    }
  }
  return { reviews: labelled.length, labels, agreed, agreement: safe(agreed, labels), missed, extra, differences };
}
