import { createMatcher, type Matcher } from "../content/mentions.ts";
import type { Business, ReviewAspect } from "../content/records.ts";
import type { CatalogueItem } from "../content/schema.ts";
import type { ReviewInput } from "./annotate.ts";
import { type CountedSentence, countedMention, leansTo } from "./quotes.ts";
import type { AspectMention } from "./readings.ts";

/**
 * The sentence each of a review's readings rests on, as its evidence pages show it: per aspect id
 * (quotes.ts `countedMention`), and per entity the review lists and aspect, for that entity's
 * "Discussed with" page, where it differs (`null`: none there); `countedSentence` reads them.
 */

const KINDS = ["technicians", "services", "service_areas"] as const;

/** The key of `counted` for `aspect`, on the page of `entity` ("technicians:marcus-bell") if given. */
export const countedKey = (aspect: string, entity?: string) => (entity === undefined ? aspect : `${entity}/${aspect}`);

/** Slots of one entry: aspect, entity ("" for the aspect's own), sentence (or null), the span's two ends. */
const SLOTS = 5;

/**
 * One review's counted sentences, kept from the analysis to the last evidence page: one flat array
 * of the build's own aspect and entity strings and the review's sentences, each sentence once,
 * rather than a map, an object and a span per entry (about 380,000 entries at 100,000 reviews).
 */
export class ReviewCounted {
  readonly #slots: (string | number | null)[] = [];

  /** The sentence of `aspect`'s reading (on `entity`'s page), `null` for none there, undefined when not set. */
  get(aspect: string, entity = ""): CountedSentence | null | undefined {
    const slots = this.#slots;
    for (let i = 0; i < slots.length; i += SLOTS) {
      if (slots[i] !== aspect || slots[i + 1] !== entity) continue;
      const sentence = slots[i + 2] as string | null;
      return sentence === null ? null : { sentence, span: [slots[i + 3] as number, slots[i + 4] as number] };
    }
    return undefined;
  }

  /**
   * Where the sentence shown for `aspect`'s reading (on `entity`'s page if given) is among the
   * entries: the entity's own entry, else the aspect's; -1 when none is shown (`countedSentence`).
   * Lets a caller that meets the same review on many pages tell which sentence it shows without
   * making it (review-page-props.ts).
   */
  shownAt(aspect: string, entity?: string): number {
    const slots = this.#slots;
    let own = -1;
    for (let i = 0; i < slots.length; i += SLOTS) {
      if (slots[i] !== aspect) continue;
      if (entity !== undefined && slots[i + 1] === entity) return slots[i + 2] === null ? -1 : i;
      if (slots[i + 1] === "" && slots[i + 2] !== null) own = i;
    }
    return own;
  }

  /** Whether `shownAt`'s places `a` and `b` show the same sentence: two entities' pages often show one clause naming both. */
  sameShown(a: number, b: number): boolean {
    const slots = this.#slots;
    if (a < 0 || b < 0) return a === b;
    return slots[a + 2] === slots[b + 2] && slots[a + 3] === slots[b + 3] && slots[a + 4] === slots[b + 4];
  }

  /** The sentence at `shownAt`'s place, undefined for -1. */
  shown(at: number): CountedSentence | undefined {
    const slots = this.#slots;
    const sentence = at < 0 ? null : (slots[at + 2] as string | null);
    return sentence === null ? undefined : { sentence, span: [slots[at + 3] as number, slots[at + 4] as number] };
  }

  /** Each entry under its `countedKey`, in the order set, as a map of them would list them. */
  *[Symbol.iterator](): IterableIterator<[string, CountedSentence | null]> {
    const slots = this.#slots;
    for (let i = 0; i < slots.length; i += SLOTS) {
      const [aspect, entity] = [slots[i] as string, slots[i + 1] as string];
      yield [countedKey(aspect, entity || undefined), this.get(aspect, entity) ?? null];
    }
  }

  /**
   * The entries as a review's summary stores them (review-summary.ts), three slots each: aspect,
   * entity, and the index in `mentions` of the clause counted, -1 for none there. Every sentence
   * counted is one of `mentions`' (`createCountedSentences` picks among them), so none is stored twice.
   */
  stored(mentions: readonly AspectMention[]): (string | number)[] {
    const slots = this.#slots;
    const out: (string | number)[] = [];
    for (let i = 0; i < slots.length; i += SLOTS) {
      const sentence = slots[i + 2];
      const at =
        sentence === null
          ? -1
          : mentions.findIndex(
              (m) => m.sentence === sentence && m.span[0] === slots[i + 3] && m.span[1] === slots[i + 4],
            );
      if (sentence !== null && at < 0)
        throw new Error(`a counted sentence of ${String(slots[i])} is no mention of the review`);
      out.push(slots[i] as string, slots[i + 1] as string, at);
    }
    return out;
  }

  /**
   * The entries `stored` wrote, their sentences taken from `mentions`; throws on anything else, so a
   * damaged summary is made again. `name` gives the build's own copy of an aspect or entity string.
   */
  static fromStored(
    stored: unknown,
    mentions: readonly AspectMention[],
    name: (s: string) => string = (s) => s,
  ): ReviewCounted {
    if (!Array.isArray(stored) || stored.length % 3 !== 0) throw new TypeError("no counted sentences");
    const out = new ReviewCounted();
    for (let i = 0; i < stored.length; i += 3) {
      const [aspect, entity, at] = [stored[i], stored[i + 1], stored[i + 2]];
      if (typeof aspect !== "string" || typeof entity !== "string" || !Number.isInteger(at) || at < -1)
        throw new TypeError("not a counted sentence");
      const m = at === -1 ? null : mentions[at];
      if (m === undefined) throw new TypeError("a counted sentence out of range");
      out.set(name(aspect), name(entity), m);
    }
    return out;
  }

  /** Sets (or replaces) the entry of `aspect` on `entity`'s page ("" for the aspect's own). */
  set(aspect: string, entity: string, said: CountedSentence | null): void {
    const slots = this.#slots;
    let at = slots.length;
    let sentence = said?.sentence ?? null;
    for (let i = 0; i < slots.length; i += SLOTS) {
      if (slots[i] === aspect && slots[i + 1] === entity) at = i;
      // Equal text held once: a review's aspects often rest on one sentence, each decoded on its own.
      if (sentence !== null && slots[i + 2] === sentence) sentence = slots[i + 2] as string;
    }
    slots.splice(at, SLOTS, aspect, entity, sentence, said?.span[0] ?? 0, said?.span[1] ?? 0);
  }
}

export type CountedSentences = (
  review: Pick<ReviewInput, (typeof KINDS)[number]>,
  aspects: readonly ReviewAspect[],
  mentions: readonly AspectMention[],
) => ReviewCounted;

/** The sentence shown for a review's reading of `aspect` (on `entity`'s page if given), from its `counted` entry. */
export function countedSentence(
  said: ReviewCounted | undefined,
  aspect: string,
  entity?: string,
): CountedSentence | undefined {
  return said?.shown(said.shownAt(aspect, entity));
}

export function createCountedSentences(business: Business, indexOf: ReadonlyMap<string, number>): CountedSentences {
  const matchers = new Map<string, { own: Matcher; kind: Matcher }>();
  for (const kind of KINDS) {
    const items = business[kind] as CatalogueItem[];
    const all = createMatcher(items);
    for (const item of items) matchers.set(`${kind}:${item.id}`, { own: createMatcher([item]), kind: all });
  }
  // The build's one string per aspect and entity, not each review's own copy.
  const aspectIds = new Map([...indexOf.keys()].map((id) => [id, id]));
  const entities = new Map([...matchers.keys()].map((key) => [key, key]));
  const text = (m: AspectMention) => m.sentence.slice(m.span[0], m.span[1]);

  return (review, aspects, mentions) => {
    const said = new ReviewCounted();
    for (const a of aspects) {
      const i = indexOf.get(a.id) as number;
      const aspect = aspectIds.get(a.id) as string;
      const about = mentions.filter((m) => m.aspect === i);
      const keep = a.source === "editor" ? leansTo(a.sentiment) : () => true;
      const counted = countedMention(a.sentiment, about, keep);
      if (counted) said.set(aspect, "", counted);
      // On an entity's page, a clause that names it, else one that names no other of its kind: "…got
      // me in with Dr. Patel, and she did a great adjustment" is no evidence about Dr. Bell.
      for (const kind of KINDS) {
        for (const id of review[kind]) {
          const entity = entities.get(`${kind}:${id}`);
          const match = entity === undefined ? undefined : matchers.get(entity);
          if (!match || entity === undefined) continue;
          const names = (m: AspectMention) => match.own.detect(text(m)).length > 0;
          const others = (m: AspectMention) => match.kind.detect(text(m)).some((x) => x !== id);
          const own = about.filter((m) => keep(m) && names(m));
          const chosen =
            (own.length > 0 ? countedMention(a.sentiment, own, () => true) : undefined) ??
            countedMention(a.sentiment, about, (m) => keep(m) && !others(m));
          if (chosen !== counted) said.set(aspect, entity, chosen ?? null);
        }
      }
    }
    return said;
  };
}
