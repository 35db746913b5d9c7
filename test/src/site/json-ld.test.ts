import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadContent } from "../../../src/io/content-dir.ts";
import { localBusinessJsonLd, reviewPageJsonLd } from "../../../src/site/json-ld.ts";

/**
 * The practice's JSON-LD against the schema.org vocabulary as schema-dts ships it (its generated
 * declarations list every type with its supertypes and every enumeration with its members), so a
 * type schema.org does not have, such as `Chiropractor`, fails here as well as under `tsc`.
 */

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/basic-content");
const vocabulary = await readFile(
  path.join(path.dirname(createRequire(import.meta.url).resolve("schema-dts")), "schema.d.ts"),
  "utf8",
);

/** Every `Base` interface a schema.org type extends, transitively (e.g. `LocalBusinessBase`). */
function ancestors(type: string): Set<string> {
  const leaf = new RegExp(`interface ${type}Leaf extends ([\\w, ]+) \\{`).exec(vocabulary);
  if (!leaf) throw new Error(`${type} is not a schema.org type`);
  const seen = new Set<string>();
  const queue = (leaf[1] as string).split(/,\s*/);
  while (queue.length > 0) {
    const base = queue.pop() as string;
    if (seen.has(base)) continue;
    seen.add(base);
    const parents = new RegExp(`interface ${base} extends ([\\w, ]+) \\{`).exec(vocabulary);
    if (parents) queue.push(...(parents[1] as string).split(/,\s*/));
  }
  return seen;
}

/** The members of a schema.org enumeration, as their full URLs. */
function members(enumeration: string): string[] {
  const line = new RegExp(`export type ${enumeration} = ([^;]+);`).exec(vocabulary)?.[1] ?? "";
  return [...line.matchAll(/"(https:\/\/schema\.org\/\w+)"/g)].map((m) => m[1] as string);
}

const content = await loadContent(FIXTURE, { now: new Date("2026-01-01T00:00:00Z") });
const aggregate = { rating_value: 4, review_count: 1, best_rating: 5 as const, worst_rating: 1 as const };
const node = localBusinessJsonLd({
  business: content.business,
  aggregate: { ...aggregate, distribution: { "1": 0, "2": 0, "3": 0, "4": 1, "5": 0 } },
  reviews: [],
  homeUrl: "https://reviews.example/",
});

describe("the practice's JSON-LD", () => {
  it("is a schema.org type that is a LocalBusiness, so aggregateRating and review apply", () => {
    expect(() => ancestors("Chiropractor")).toThrow("not a schema.org type");
    const type = node["@type"] as string;
    expect(ancestors(type)).toContain("LocalBusinessBase");
    expect(ancestors(type)).toContain("MedicalOrganizationBase");
  });

  it("says chiropractic with schema.org's own values: a MedicineSystem on each service, a MedicalSpecialty", () => {
    expect(members("MedicineSystem")).toContain("https://schema.org/Chiropractic");
    expect(members("MedicalSpecialty")).toContain(node.medicalSpecialty);
    const services = node.availableService as { "@type": string; name: string; medicineSystem: string }[];
    expect(services.map((s) => s.name)).toEqual(content.business.services.map((s) => s.name));
    for (const s of services) {
      // medicineSystem is a property of MedicalEntity.
      expect(ancestors(s["@type"])).toContain("MedicalEntityBase");
      expect(s.medicineSystem).toBe("https://schema.org/Chiropractic");
    }
  });

  it("names the same type in a review page's itemReviewed", () => {
    const review = { id: "r", url: "https://reviews.example/reviews/r/", title: null, author: "A", date: "2026-01-01" };
    const ld = reviewPageJsonLd(
      content.business,
      { ...review, text: "Good.", rating: 5 } as Parameters<typeof reviewPageJsonLd>[1],
      "https://reviews.example/",
    );
    expect((ld.itemReviewed as { "@type": string })["@type"]).toBe(node["@type"]);
  });
});
