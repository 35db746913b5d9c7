import { type ReviewRecord, type ReviewsDataset, SENTIMENTS, type Sentiment } from "../content/records.ts";
import type { AspectInsight, EntityInsight, Insights } from "../insights/schema.ts";
import { percentOf, signed } from "../insights/view.ts";
import {
  aspectPath,
  ENTITY_SEGMENTS,
  type EntityKind,
  entityPath,
  RECENT_SEGMENT,
  RESERVED_SEGMENTS,
  ratingPath,
  recentAspectPath,
  topicPath,
  topicSlugs,
} from "./evidence-paths.ts";
import { formatDate } from "./html-view.ts";

/**
 * The evidence pages: for every figure of the home page, the static list of the reviews it counts,
 * with the figure's definition at the top. The lists come from the records' own `aspects` and
 * mention ids, the annotations /insights.json counts (src/insights/aspect-stats.ts, entities.ts),
 * so a page lists exactly as many reviews as its figure says, and editor labels flow through. One
 * pass over the reviews, newest first, so every list is newest first.
 */

export interface EvidencePage {
  /** Site-relative path, from src/site/evidence-paths.ts. */
  path: string;
  title: string;
  /** What the figure counts and how, one paragraph each. */
  definition: string[];
  /** The reviews the figure counts, newest first (a topic's beyond the 100 ids /insights.json keeps are not listed). */
  reviews: ReviewRecord[];
  /** When set, each listed review shows its reading of this aspect. */
  aspect?: string;
  /** On an entity's "Discussed with" page, the entity ("technicians:marcus-bell"): the sentence shown is about it. */
  entity?: string;
}

const KINDS = Object.keys(ENTITY_SEGMENTS) as EntityKind[];
const KIND_WORDS: Record<EntityKind, string> = {
  technicians: "practitioner",
  services: "service",
  service_areas: "service area",
};
const reviewsWord = (n: number) => (n === 1 ? "review" : "reviews");
const HOME = "on the home page";

function sentimentRule(s: Sentiment): string {
  if (s === "positive") return "scores +0.05 or more";
  if (s === "negative") return "scores −0.05 or less";
  return "scores between −0.05 and +0.05";
}

function aspectPages(a: AspectInsight, total: number, lists: Map<string, ReviewRecord[]>): EvidencePage[] {
  const list = (path: string) => lists.get(path) ?? [];
  const all = list(aspectPath(a.id));
  const pages: EvidencePage[] = [
    {
      path: aspectPath(a.id),
      title: `${a.label}: ${all.length} ${reviewsWord(all.length)}`,
      definition: [
        `The reviews that discuss ${a.label.toLowerCase()}: the reading found a clause about it, or the practice labelled the review.`,
        `This is the Reviews figure of the ${a.label} row ${HOME} (${percentOf(a.reviews, total)}% of all reviews). ${
          a.mean_sentiment === null
            ? "No review discusses it, so the row has no mean sentiment (n/a) and no mention."
            : `The row's mean sentiment, ${signed(a.mean_sentiment)} on a scale from −1 to +1, is the average of these reviews' scores; its ${a.mentions} ${a.mentions === 1 ? "mention counts clauses" : "mentions count clauses"}, several of which can come from one review.`
        }`,
      ],
      reviews: all,
      aspect: a.id,
    },
  ];
  for (const s of SENTIMENTS) {
    const path = aspectPath(a.id, s);
    const reviews = list(path);
    const share =
      a.reviews === 0 ? "" : `, ${percentOf(reviews.length, a.reviews)}% of the ${a.reviews} that discuss it`;
    pages.push({
      path,
      title: `${a.label}: ${reviews.length} ${s} ${reviewsWord(reviews.length)}`,
      definition: [
        `The reviews whose reading of ${a.label.toLowerCase()} is ${s}: what the review says about it ${sentimentRule(s)} on a scale from −1 to +1, or the practice labelled it ${s}.`,
        `This is the ${s} figure of the ${a.label} row ${HOME}${share}.`,
      ],
      reviews,
      aspect: a.id,
    });
  }
  if (a.trend) {
    const { recent, previous } = a.trend;
    const reviews = list(recentAspectPath(a.id));
    pages.push({
      path: recentAspectPath(a.id),
      title: `${a.label}, last 12 months: ${reviews.length} ${reviewsWord(reviews.length)}`,
      definition: [
        `The reviews dated ${formatDate(recent.from)} to ${formatDate(recent.to)} (the 12 months up to the newest review) that discuss ${a.label.toLowerCase()}.`,
        aspectTrendSentence(a.label, recent.mean_sentiment, previous.mean_sentiment),
      ],
      reviews,
      aspect: a.id,
    });
  }
  return pages;
}

/** How an aspect's Last 12 months figure follows from the two means; a period without reviews has none. */
function aspectTrendSentence(label: string, recent: number | null, previous: number | null): string {
  const figure = `the Last 12 months figure of the ${label} row ${HOME}`;
  const what = label.toLowerCase();
  if (recent === null) return `No review of these 12 months discusses ${what}, so ${figure} says not enough data.`;
  if (previous === null)
    return `Their mean sentiment is ${signed(recent)}; no review of the 12 months before discusses ${what}, so ${figure} says not enough data.`;
  return `Their mean sentiment, ${signed(recent)}, against ${signed(previous)} in the 12 months before, gives ${figure}.`;
}

function entityPages(kind: EntityKind, e: EntityInsight, lists: Map<string, ReviewRecord[]>): EvidencePage[] {
  const reviews = lists.get(entityPath(kind, e.id)) ?? [];
  const word = KIND_WORDS[kind];
  const rating = e.average_rating === null ? "" : ` Their average rating is ${e.average_rating.toFixed(2)} stars.`;
  const pages: EvidencePage[] = [
    {
      path: entityPath(kind, e.id),
      title: `${e.name}: ${reviews.length} ${reviewsWord(reviews.length)}`,
      definition: [
        `The reviews that mention the ${word} ${e.name}, by name in the text or as tagged by the practice.${rating}`,
        e.net_sentiment === null
          ? `No review mentions ${e.name}, so the ${e.name} row ${HOME} has no average rating and no net sentiment (n/a).`
          : `Net sentiment, ${signed(e.net_sentiment)}, is (positive − negative) ÷ reviews, where a review's sentiment about ${e.name} comes from the clauses that name it. These are the figures of the ${e.name} row ${HOME}.`,
      ],
      reviews,
    },
  ];
  for (const x of e.top_aspects) {
    const path = entityPath(kind, e.id, x.id);
    const list = lists.get(path) ?? [];
    pages.push({
      path,
      title: `${e.name} and ${x.label.toLowerCase()}: ${list.length} ${reviewsWord(list.length)}`,
      definition: [
        `The reviews that mention the ${word} ${e.name} and also discuss ${x.label.toLowerCase()}: the "Discussed with" column of the ${e.name} row ${HOME}.`,
      ],
      reviews: list,
      aspect: x.id,
      entity: `${kind}:${e.id}`,
    });
  }
  return pages;
}

/** The histogram's bars and the rating trend: reviews by star rating, and those of the last 12 months. */
function ratingPages(reviews: readonly ReviewRecord[], trend: Insights["summary"]["highlights"]["rating_trend"]) {
  const pages: EvidencePage[] = [5, 4, 3, 2, 1].map((stars) => {
    const list = reviews.filter((r) => r.rating === stars);
    return {
      path: ratingPath(stars),
      title: `${stars}-star reviews: ${list.length}`,
      definition: [`The reviews that gave ${stars} out of 5 stars: the ${stars}-star bar of the ratings ${HOME}.`],
      reviews: list,
    };
  });
  if (trend) {
    const { recent, previous } = trend;
    const list = reviews.filter((r) => r.date >= recent.from && r.date <= recent.to);
    const stars = (x: number | null) => `${x?.toFixed(2)} stars`;
    // The newest review is always in the last 12 months: only the 12 before can be empty.
    const compared =
      previous.rating_value === null
        ? `Their mean rating is ${stars(recent.rating_value)}; no review is dated in the 12 months before, so the rating trend ${HOME} has nothing to compare it with.`
        : `Their mean rating, ${stars(recent.rating_value)}, against ${stars(previous.rating_value)} in the 12 months before, is the rating trend ${HOME}.`;
    pages.push({
      path: ratingPath(RECENT_SEGMENT),
      title: `Reviews of the last 12 months: ${list.length}`,
      definition: [
        `The reviews dated ${formatDate(recent.from)} to ${formatDate(recent.to)}, the 12 months up to the newest review. ${compared}`,
      ],
      reviews: list,
    });
  }
  return pages;
}

/** Every evidence page of a build, in a fixed order: aspects, entities, topics, then ratings. */
export function evidencePages(dataset: ReviewsDataset, insights: Insights): EvidencePage[] {
  const lists = new Map<string, ReviewRecord[]>();
  const add = (path: string, r: ReviewRecord) => {
    const list = lists.get(path);
    if (list) list.push(r);
    else lists.set(path, [r]);
  };
  for (const a of insights.aspects) {
    if (RESERVED_SEGMENTS.includes(a.id))
      throw new Error(
        `content/insights/aspects.yaml: id: "${a.id}" names the evidence pages of ${a.id}; choose another id`,
      );
  }
  const recent = new Map(insights.aspects.map((a) => [a.id, a.trend?.recent]));
  // Each path is made once, not once per review: 30 look-ups a review, each of a new string, were
  // most of this pass at 10,000 reviews. `pairs`: an entity's "Discussed with" pages, by aspect.
  const aspectPaths = new Map<string, { all: string; recent: string; by: Record<Sentiment, string> }>();
  const pathsOf = (id: string) => {
    let paths = aspectPaths.get(id);
    if (paths === undefined) {
      const by = Object.fromEntries(SENTIMENTS.map((s) => [s, aspectPath(id, s)])) as Record<Sentiment, string>;
      paths = { all: aspectPath(id), recent: recentAspectPath(id), by };
      aspectPaths.set(id, paths);
    }
    return paths;
  };
  const entityPaths = new Map(KINDS.map((kind) => [kind, new Map<string, string>()]));
  const entityOf = (kind: EntityKind, id: string) => {
    const ofKind = entityPaths.get(kind) as Map<string, string>;
    let base = ofKind.get(id);
    if (base === undefined) {
      base = entityPath(kind, id);
      ofKind.set(id, base);
    }
    return base;
  };
  const pairs = new Map<string, Map<string, string>>();
  for (const kind of KINDS)
    for (const e of insights.entities[kind])
      for (const x of e.top_aspects) {
        const base = entityPath(kind, e.id);
        pairs.set(base, (pairs.get(base) ?? new Map()).set(x.id, entityPath(kind, e.id, x.id)));
      }
  for (const r of dataset.reviews) {
    for (const a of r.aspects) {
      const paths = pathsOf(a.id);
      add(paths.all, r);
      add(paths.by[a.sentiment], r);
      const period = recent.get(a.id);
      if (period && r.date >= period.from && r.date <= period.to) add(paths.recent, r);
    }
    for (const kind of KINDS) {
      for (const id of r[kind]) {
        const base = entityOf(kind, id);
        add(base, r);
        const withAspect = pairs.get(base);
        if (withAspect === undefined) continue;
        for (const a of r.aspects) {
          const path = withAspect.get(a.id);
          if (path !== undefined) add(path, r);
        }
      }
    }
  }
  const pages = insights.aspects.flatMap((a) => aspectPages(a, dataset.reviews.length, lists));
  for (const kind of KINDS) pages.push(...insights.entities[kind].flatMap((e) => entityPages(kind, e, lists)));
  const byId = new Map(dataset.reviews.map((r) => [r.id, r]));
  const slugs = topicSlugs(insights.topics.map((t) => t.phrase));
  insights.topics.forEach((t, i) => {
    const reviews = t.review_ids.flatMap((id) => byId.get(id) ?? []);
    const cut = reviews.length < t.count ? ` The ${reviews.length} newest are listed.` : "";
    pages.push({
      path: topicPath(slugs[i] as string),
      title: `“${t.phrase}”: ${t.count} ${reviewsWord(t.count)}`,
      definition: [
        `The reviews that use the phrase “${t.phrase}”, one of the recurring topics ${HOME}, each counted once however often it uses it.${cut}`,
      ],
      reviews,
    });
  });
  pages.push(...ratingPages(dataset.reviews, insights.summary.highlights.rating_trend));
  return pages;
}
