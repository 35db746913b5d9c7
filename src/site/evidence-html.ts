import { reviewPath } from "../content/dataset.ts";
import type { ReviewAspect } from "../content/records.ts";
import { htmlText } from "../feeds/atom.ts";
import { reviewTitle } from "../feeds/entries.ts";
import type { CountedSentence } from "../insights/quotes.ts";
import { formatDate } from "./html-view.ts";
import type { EvidenceItem } from "./review-page-props.ts";

/**
 * An evidence page's list as one HTML string. An aspect's page lists thousands of reviews at 10,000
 * reviews, and each list item as Astro components (with their scoped-style attributes) cost about a
 * millisecond and 750 bytes; as a string it is a few microseconds and under 250 bytes. Every value
 * is escaped here (`htmlText`), so review text cannot become markup.
 */
export function evidenceListHtml(items: readonly EvidenceItem[], prefix: string, aspectLabel?: string): string {
  let out = "";
  for (const r of items) {
    const reading =
      r.reading && aspectLabel
        ? ` · ${htmlText(`${aspectLabel}: ${r.reading.sentiment}`)}${isEditorLabel(r.reading) ? " (confirmed by the practice)" : ""}`
        : "";
    out +=
      `<li class="evidence-item"><a href="${htmlText(`${prefix}${reviewPath(r.id)}`)}">${htmlText(reviewTitle(r))}</a>` +
      `<span class="evidence-item__meta">${r.rating} out of 5 stars · ${htmlText(r.author)} · ` +
      `<time datetime="${r.date}">${formatDate(r.date)}</time>${reading}</span>${r.said ? saidHtml(r.said) : ""}</li>`;
  }
  return out;
}

/** Characters of a sentence an evidence list shows around the clause that was read. */
const SAID_MAX = 300;

/**
 * The review's sentence that was counted, with the clause that was read marked: the words as the
 * reviewer wrote them, cut to about `SAID_MAX` characters around that clause at word boundaries.
 */
export function saidHtml({ sentence, span }: CountedSentence): string {
  let [start, end] = span;
  if (start < 0 || end > sentence.length || start >= end) [start, end] = [0, sentence.length];
  let from = 0;
  let to = sentence.length;
  if (to > SAID_MAX) {
    from = Math.max(0, Math.min(start, to - SAID_MAX));
    if (from > 0) from = sentence.indexOf(" ", from - 1) + 1 || from;
    to = Math.min(to, from + SAID_MAX);
    const space = sentence.lastIndexOf(" ", to);
    if (to < sentence.length && space > Math.max(start, from)) to = space;
  }
  const markFrom = Math.max(start, from);
  const mark = [markFrom, Math.max(markFrom, Math.min(end, to))] as const;
  return (
    `<q class="evidence-item__said">${from > 0 ? "…" : ""}${htmlText(sentence.slice(from, mark[0]))}` +
    `<mark>${htmlText(sentence.slice(mark[0], mark[1]))}</mark>${htmlText(sentence.slice(mark[1], to))}` +
    `${to < sentence.length ? "…" : ""}</q>`
  );
}

/** A label an editor confirmed (`source: "editor"` on the record's entry) rather than the machine's reading. */
export function isEditorLabel(reading: Pick<ReviewAspect, "source">): boolean {
  return reading.source === "editor";
}
