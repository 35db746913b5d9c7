import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countedKey, countedSentence, ReviewCounted } from "../../../src/insights/counted.ts";
import type { CountedSentence } from "../../../src/insights/quotes.ts";

const said = fc.option(
  fc.record({
    sentence: fc.constantFrom("Great adjustment.", "The wait was long.", "Parking was easy, but the desk was rude."),
    span: fc.tuple(fc.nat(40), fc.nat(40)),
  }),
  { nil: null },
) as fc.Arbitrary<CountedSentence | null>;
const sets = fc.array(
  fc.tuple(
    fc.constantFrom("care", "staff", "location"),
    fc.constantFrom("", "technicians:marcus-bell", "services:x"),
    said,
  ),
  { maxLength: 12 },
);

describe("ReviewCounted", () => {
  it("reads and lists what was set as a map keyed by countedKey would, the last set of a key winning", () => {
    fc.assert(
      fc.property(sets, (entries) => {
        const counted = new ReviewCounted();
        const model = new Map<string, CountedSentence | null>();
        for (const [aspect, entity, s] of entries) {
          counted.set(aspect, entity, s);
          model.set(countedKey(aspect, entity || undefined), s);
        }
        expect([...counted]).toEqual([...model]);
        for (const aspect of ["care", "staff", "location"]) {
          expect(counted.get(aspect)).toEqual(model.get(aspect));
          for (const entity of ["technicians:marcus-bell", "services:x"]) {
            expect(counted.get(aspect, entity)).toEqual(model.get(countedKey(aspect, entity)));
            const own = model.get(countedKey(aspect, entity));
            const shown = own === null ? undefined : (own ?? model.get(aspect) ?? undefined);
            expect(countedSentence(counted, aspect, entity)).toEqual(shown);
          }
        }
        // Two pages show the same sentence exactly when `sameShown` says so.
        const pages = ["care", "staff", "location"].flatMap((aspect) =>
          [undefined, "technicians:marcus-bell", "services:x"].map((entity) => ({ aspect, entity })),
        );
        for (const a of pages)
          for (const b of pages) {
            const same = counted.sameShown(counted.shownAt(a.aspect, a.entity), counted.shownAt(b.aspect, b.entity));
            const [x, y] = [countedSentence(counted, a.aspect, a.entity), countedSentence(counted, b.aspect, b.entity)];
            expect(same).toBe(JSON.stringify(x) === JSON.stringify(y));
          }
      }),
    );
  });

  it("gives each read its own span, so a page that changes one changes no other", () => {
    const counted = new ReviewCounted();
    counted.set("care", "", { sentence: "Great adjustment.", span: [0, 17] });
    const first = counted.get("care") as CountedSentence;
    first.span[0] = 5;
    expect(counted.get("care")).toEqual({ sentence: "Great adjustment.", span: [0, 17] });
  });
});
