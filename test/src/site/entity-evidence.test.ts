import { describe, expect, it } from "vitest";
import { createMatcher } from "../../../src/content/mentions.ts";
import { evidencePages } from "../../../src/site/evidence.ts";
import { entityPath } from "../../../src/site/evidence-paths.ts";
import { evidenceItems } from "../../../src/site/review-page-props.ts";
import { projectAnalysis } from "../../helpers/project-insights.ts";

/** On a practitioner's "Discussed with" page, the sentence shown under a review is about that practitioner. */
const { built, analysis, dataset } = await projectAnalysis();
const pages = evidencePages(dataset, analysis.insights);
const technicians = built.business.technicians;
const said = (path: string) => {
  const page = pages.find((p) => p.path === path);
  if (!page) throw new Error(`no page ${path}`);
  const items = evidenceItems(page, { from: 0, to: page.reviews.length }, analysis.counted);
  return new Map(items.map((i) => [i.id, i.said ? i.said.sentence.slice(...i.said.span) : undefined]));
};

describe("an entity's evidence page", () => {
  it("shows no sentence about another practitioner as evidence of this one", () => {
    // "Booking glitch, but they made it right" (4 stars) names Dr. Bell and Dr. Patel; its care praise is
    // Dr. Patel's "she did a great adjustment", which Dr. Bell's care page showed.
    const bell = said(entityPath("technicians", "marcus-bell", "care"));
    expect(bell.has("2026-03-09-owen-b")).toBe(true);
    expect(bell.get("2026-03-09-owen-b") ?? "").not.toMatch(/Dr\. Patel/);
    expect(said(entityPath("technicians", "anika-patel", "care")).get("2026-03-09-owen-b")).toMatch(/Dr\. Patel/);
    let checked = 0;
    for (const t of technicians) {
      const others = createMatcher(technicians.filter((x) => x.id !== t.id));
      const own = createMatcher([t]);
      for (const page of pages.filter((p) => p.path.startsWith(entityPath("technicians", t.id, "")))) {
        for (const [id, clause] of said(page.path)) {
          if (clause === undefined) continue;
          checked++;
          const misplaced = others.detect(clause).length > 0 && own.detect(clause).length === 0;
          expect(misplaced ? [page.path, id, clause] : []).toEqual([]);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("still shows the aspect's own sentence on the aspect's page", () => {
    expect(said("/insights/care/").get("2026-03-09-owen-b")).toMatch(/Dr\. Patel/);
  });
});
