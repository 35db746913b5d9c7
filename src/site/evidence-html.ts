import { reviewPath } from "../content/dataset.ts";
import type { ReviewAspect } from "../content/records.ts";
import { htmlText } from "../feeds/atom.ts";
import { reviewTitle } from "../feeds/entries.ts";
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
      `<time datetime="${r.date}">${formatDate(r.date)}</time>${reading}</span></li>`;
  }
  return out;
}

/** A label an editor confirmed (`source: "editor"` on the record's entry) rather than the machine's reading. */
export function isEditorLabel(reading: Pick<ReviewAspect, "source">): boolean {
  return reading.source === "editor";
}
