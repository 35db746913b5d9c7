import { describe, expect, it } from "vitest";
import { aspectPath, entityPath, recentAspectPath, topicPath, topicSlugs } from "../../../src/site/evidence-paths.ts";

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
});
