import type { CatalogueItem } from "../../src/content/schema.ts";
import { ASPECT_IDS, ASPECT_PHRASES, type AspectId } from "./aspect-phrases.ts";
import type { Rng } from "./prng.ts";
import {
  AREA_SENTENCES,
  ASPECT_TITLES,
  CLOSERS,
  ONE_LINERS,
  OPENERS,
  SECOND_SERVICE_SENTENCES,
  SERVICE_SENTENCES,
  TECH_SENTENCES,
  TITLES,
  type Tone,
  TURNS,
} from "./story-phrases.ts";
import { phrase, type Slots } from "./template.ts";
import { ACTIVITIES, CAUSES, COMPLAINTS, NUMBER_WORDS, RELATIVES, SERVICE_PHRASES } from "./vocabulary.ts";

/** What a review is about, decided before any word is written. */
export interface ReviewPlan {
  rating: number;
  length: "short" | "medium" | "long";
  technicians: readonly CatalogueItem[];
  services: readonly CatalogueItem[];
  area: CatalogueItem | undefined;
  /** The practice's street as patients say it, e.g. "Hall Blvd". */
  street: string;
}

/** One aspect sentence in the text: the ground truth an aspect analysis can be checked against. */
export interface TopicHit {
  aspect: AspectId;
  positive: boolean;
  negated: boolean;
}

export interface ComposedReview {
  title: string | undefined;
  text: string;
  topics: TopicHit[];
  /** Catalogue ids that actually made it into the title or text. */
  mentioned: { technicians: string[]; services: string[]; areas: string[] };
}

export function toneOf(rating: number): Tone {
  return rating >= 4 ? "positive" : rating === 3 ? "mixed" : "negative";
}

/** Composes title and text for a plan. Pure apart from drawing from `rng`. */
export function composeReview(rng: Rng, plan: ReviewPlan): ComposedReview {
  const tone = toneOf(plan.rating);
  const mentioned = { technicians: new Set<string>(), services: new Set<string>(), areas: new Set<string>() };
  const slots = reviewSlots(rng, plan, mentioned);
  const used = new Set<string>();
  const topics: TopicHit[] = [];
  const say = (templates: readonly string[], prefix?: string) => phrase(rng, templates, slots, { used, prefix });

  const aspectSentence = (positive: boolean, prefix?: string): string | undefined => {
    const aspect = rng.pick(ASPECT_IDS);
    const bank = ASPECT_PHRASES[aspect];
    const negated = rng.chance(positive ? 0.25 : 0.3);
    const templates = positive
      ? negated
        ? bank.negatedPositive
        : bank.positive
      : negated
        ? bank.negatedNegative
        : bank.negative;
    const s = say(templates, prefix);
    if (s !== undefined) topics.push({ aspect, positive, negated });
    return s;
  };

  // Most sentences follow the tone; a few turn against it ("Only knock: ..."), as real reviews do.
  const main = tone === "mixed" ? rng.chance(0.5) : tone === "positive";
  // Mixed reviews already alternate, so only the others turn at random.
  const contrastChance = [0, 0.2, 0.5, 0, 0.5, 0.15][plan.rating] ?? 0;
  const aspectRun = (count: number): string[] => {
    const out: string[] = [];
    const turnAt = rng.chance(contrastChance) ? rng.int(0, count - 1) : -1;
    for (let i = 0; i < count; i++) {
      const turn = i === turnAt || (tone === "mixed" && i % 2 === 1);
      const s = aspectSentence(turn ? !main : main, turn ? rng.pick(TURNS[tone]) : undefined);
      if (s !== undefined) out.push(s);
    }
    return out;
  };

  const sentences = (...items: (string | undefined)[]) => items.filter((s): s is string => s !== undefined);
  const closer = () => say(CLOSERS[plan.rating] ?? []);
  const people = () =>
    sentences(
      plan.technicians.length > 0 ? say(TECH_SENTENCES[tone]) : undefined,
      plan.services.length > 0 ? say(SERVICE_SENTENCES[tone]) : undefined,
      plan.services.length > 1 ? say(SECOND_SERVICE_SENTENCES[tone]) : undefined,
    );
  const area = () => (plan.area ? say(AREA_SENTENCES[tone]) : undefined);

  let paragraphs: string[][];
  if (plan.length === "short") {
    const one = rng.chance(0.5) ? say(ONE_LINERS[tone]) : undefined;
    paragraphs = [one ? [one] : sentences(...aspectRun(1), rng.chance(0.5) ? closer() : undefined)];
  } else if (plan.length === "medium") {
    paragraphs = [
      sentences(
        rng.chance(0.7) ? say(OPENERS[tone]) : undefined,
        ...people(),
        ...aspectRun(rng.int(1, 3)),
        area(),
        rng.chance(0.6) ? closer() : undefined,
      ),
    ];
  } else {
    const middle = Array.from({ length: rng.int(1, 3) }, () => aspectRun(rng.int(2, 4)));
    paragraphs = [
      sentences(say(OPENERS[tone]), ...people(), ...aspectRun(rng.int(0, 2))),
      ...middle,
      sentences(...aspectRun(rng.int(0, 2)), area(), closer()),
    ];
  }
  const text = paragraphs
    .filter((p) => p.length > 0)
    .map((p) => p.join(" "))
    .join("\n\n");
  const title = rng.chance(0.75) ? say(titleChoices(rng, tone, topics)) : undefined;
  return {
    title,
    text,
    topics,
    mentioned: {
      technicians: [...mentioned.technicians],
      services: [...mentioned.services],
      areas: [...mentioned.areas],
    },
  };
}

/** Usually a title about the aspect the review dwells on, otherwise a generic one for its tone. */
function titleChoices(rng: Rng, tone: Tone, topics: readonly TopicHit[]): readonly string[] {
  const wanted = tone === "positive";
  const topic = topics.find((t) => t.positive === wanted);
  return topic && rng.chance(0.6) ? ASPECT_TITLES[topic.aspect][wanted ? "positive" : "negative"] : TITLES[tone];
}

/** How an entry may be written: its name or any alias. */
function forms(item: CatalogueItem): readonly string[] {
  return [item.name, ...item.aliases];
}

function reviewSlots(
  rng: Rng,
  plan: ReviewPlan,
  mentioned: { technicians: Set<string>; services: Set<string>; areas: Set<string> },
): Slots {
  // One complaint, backstory and timeline per review, so the story stays consistent.
  const complaint = rng.pick(COMPLAINTS);
  const cause = rng.pick(CAUSES);
  const relative = rng.pick(RELATIVES);
  const months = rng.pick(NUMBER_WORDS);
  const entity = (item: CatalogueItem | undefined, into: Set<string>, say: (item: CatalogueItem) => string) =>
    item
      ? () => {
          into.add(item.id);
          return say(item);
        }
      : undefined;
  // The full name reads naturally more often than a bare surname alias.
  const person = (t: CatalogueItem) => (rng.chance(0.4) ? t.name : rng.pick(forms(t)));
  const service = (s: CatalogueItem) => rng.pick(SERVICE_PHRASES[s.id] ?? forms(s).map((f) => f.toLowerCase()));
  const place = (a: CatalogueItem) => rng.pick(forms(a));
  return {
    complaint: () => complaint,
    cause: () => cause,
    relative: () => relative,
    activity: () => rng.pick(ACTIVITIES),
    months: () => months,
    street: () => plan.street,
    weeks: () => rng.pick(NUMBER_WORDS.slice(0, 5)),
    visits: () => rng.pick(NUMBER_WORDS.slice(1, 6)),
    minutes: () => String(rng.int(4, 10) * 5),
    fewMinutes: () => String(rng.int(2, 5)),
    amount: () => `$${rng.int(12, 90) * 5}`,
    copay: () => `$${rng.int(4, 9) * 5}`,
    tech: entity(plan.technicians[0], mentioned.technicians, person),
    tech2: entity(plan.technicians[1], mentioned.technicians, person),
    svc: entity(plan.services[0], mentioned.services, service),
    svc2: entity(plan.services[1], mentioned.services, service),
    area: entity(plan.area, mentioned.areas, place),
  };
}
