import { describe, expect, it } from "vitest";
import {
  aspectPath,
  EVIDENCE_PART_SIZE,
  entityPath,
  evidenceParts,
  RESERVED_SEGMENTS,
  recentAspectPath,
  topicPath,
  topicSlugs,
} from "../../../src/site/evidence-paths.ts";
import { listParts } from "../../../src/site/list-parts.ts";

describe("evidence paths", () => {
  it("gives each figure its own address", () => {
    expect(aspectPath("billing")).toBe("/insights/billing/");
    expect(aspectPath("billing", "negative")).toBe("/insights/billing/negative/");
    expect(recentAspectPath("billing")).toBe("/insights/billing/last-12-months/");
    expect(entityPath("technicians", "anika-patel")).toBe("/insights/practitioners/anika-patel/");
    expect(entityPath("service_areas", "tigard", "location")).toBe("/insights/service-areas/tigard/location/");
    expect(topicPath("front-desk")).toBe("/insights/topics/front-desk/");
  });

  it("makes one slug per topic, numbering phrases that fold to the same one", () => {
    expect(topicSlugs(["front desk", "Front-desk!", "café visit", "???"])).toEqual([
      "front-desk",
      "front-desk-2",
      "cafe-visit",
      "topic",
    ]);
  });

  it("cuts a long list into parts, the first at the list's own address", () => {
    expect(evidenceParts("/insights/care/", 0)).toEqual([{ path: "/insights/care/", n: 1, of: 1, from: 0, to: 0 }]);
    expect(evidenceParts("/insights/care/", EVIDENCE_PART_SIZE)).toHaveLength(1);
    expect(evidenceParts("/insights/care/", EVIDENCE_PART_SIZE + 1).map((p) => p.path)).toEqual([
      "/insights/care/",
      "/insights/care/page/2/",
    ]);
    expect(listParts("/reviews/2026/11/", 5, 2)).toEqual([
      { path: "/reviews/2026/11/", n: 1, of: 3, from: 0, to: 2 },
      { path: "/reviews/2026/11/page/2/", n: 2, of: 3, from: 2, to: 4 },
      { path: "/reviews/2026/11/page/3/", n: 3, of: 3, from: 4, to: 5 },
    ]);
    // No aspect may be called "page": its list's parts would sit beside an entity's aspect pages.
    expect(RESERVED_SEGMENTS).toContain("page");
  });
});
