import { createMatcher, type Matcher } from "../content/mentions.ts";
import type { Business, ReviewAspect, ReviewRecord } from "../content/records.ts";
import type { CatalogueItem } from "../content/schema.ts";
import { type CountedSentence, countedMention, leansTo } from "./quotes.ts";
import type { AspectMention } from "./readings.ts";

/**
 * The sentence each of a review's readings rests on, as its evidence pages show it: per aspect id
 * (quotes.ts `countedMention`), and per entity the review lists and aspect, under
 * `countedKey(aspect, "<kind>:<id>")`, for that entity's "Discussed with" page, where it differs
 * (`null`: none there); `countedSentence` reads them.
 */

const KINDS = ["technicians", "services", "service_areas"] as const;

/** The key of `counted` for `aspect`, on the page of `entity` ("technicians:marcus-bell") if given. */
export const countedKey = (aspect: string, entity?: string) => (entity === undefined ? aspect : `${entity}/${aspect}`);

export type CountedSentences = (
  review: ReviewRecord,
  aspects: readonly ReviewAspect[],
  mentions: readonly AspectMention[],
) => Map<string, CountedSentence | null>;

/** The sentence shown for a review's reading of `aspect` (on `entity`'s page if given), from its `counted` map. */
export function countedSentence(
  said: ReadonlyMap<string, CountedSentence | null> | undefined,
  aspect: string,
  entity?: string,
): CountedSentence | undefined {
  const own = said?.get(countedKey(aspect, entity));
  return own === null ? undefined : (own ?? said?.get(aspect) ?? undefined);
}

export function createCountedSentences(business: Business, indexOf: ReadonlyMap<string, number>): CountedSentences {
  const matchers = new Map<string, { own: Matcher; kind: Matcher }>();
  for (const kind of KINDS) {
    const items = business[kind] as CatalogueItem[];
    const all = createMatcher(items);
    for (const item of items) matchers.set(`${kind}:${item.id}`, { own: createMatcher([item]), kind: all });
  }
  const text = (m: AspectMention) => m.sentence.slice(m.span[0], m.span[1]);

  return (review, aspects, mentions) => {
    const said = new Map<string, CountedSentence | null>();
    const sentence = (m: AspectMention) => ({ sentence: m.sentence, span: m.span });
    for (const a of aspects) {
      const i = indexOf.get(a.id) as number;
      const about = mentions.filter((m) => m.aspect === i);
      const keep = a.source === "editor" ? leansTo(a.sentiment) : () => true;
      const counted = countedMention(a.sentiment, about, keep);
      if (counted) said.set(a.id, sentence(counted));
      // On an entity's page, a clause that names it, else one that names no other of its kind: "…got
      // me in with Dr. Patel, and she did a great adjustment" is no evidence about Dr. Bell.
      for (const kind of KINDS) {
        for (const id of review[kind]) {
          const match = matchers.get(`${kind}:${id}`);
          if (!match) continue;
          const names = (m: AspectMention) => match.own.detect(text(m)).length > 0;
          const others = (m: AspectMention) => match.kind.detect(text(m)).some((x) => x !== id);
          const own = about.filter((m) => keep(m) && names(m));
          const chosen =
            (own.length > 0 ? countedMention(a.sentiment, own, () => true) : undefined) ??
            countedMention(a.sentiment, about, (m) => keep(m) && !others(m));
          if (chosen !== counted) said.set(countedKey(a.id, `${kind}:${id}`), chosen ? sentence(chosen) : null);
        }
      }
    }
    return said;
  };
}
