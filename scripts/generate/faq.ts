import { compareReviews } from "../../src/content/dataset.ts";
import type { AspectId } from "./aspect-phrases.ts";
import type { GeneratedReview } from "./content.ts";
import { yamlScalar } from "./review-yaml.ts";

/**
 * A FAQ for the generated set, in the shape of content/insights/faq.yaml. The generator knows
 * which aspect sentences each review holds, so answers can quote real counts and cite reviews
 * that really say what the answer claims.
 */

type Counted = (verb: string) => string;

interface Topic {
  aspect: AspectId;
  question: string;
  /** Only reviews praising the aspect through a negation ("not painful at all") count. */
  negatedPraise?: boolean;
  /** `pos("say")` reads "1,204 reviews say" or "One review says". */
  answer: (pos: Counted, neg: Counted) => string;
}

const TOPICS: readonly Topic[] = [
  {
    aspect: "pain-relief",
    negatedPraise: true,
    question: "Is treatment painful?",
    answer: (pos) =>
      `Rarely, by reviewers' accounts. ${pos("say")} their treatment was not painful, often to their surprise. A few mention soreness for a day or two afterwards.`,
  },
  {
    aspect: "billing",
    question: "Does insurance cover visits?",
    answer: (pos, neg) =>
      `It depends on the plan. ${pos("praise")} the billing: insurance checked up front, fair prices, payment plans and HSA cards. ${neg("describe")} a surprise bill, a claim billed wrong or a package they didn't need, so ask for a written estimate before you start.`,
  },
  {
    aspect: "scheduling",
    question: "How long is the wait?",
    answer: (pos, neg) =>
      `${pos("mention")} same day appointments, easy online booking or being seen on time. ${neg("describe")} waits of 20 minutes or more, or a phone line that went to voicemail.`,
  },
  {
    aspect: "location",
    question: "Is parking easy?",
    answer: (pos, neg) =>
      `${pos("find")} parking and the drive easy, and the clinic validates parking in the garage across the street. ${neg("mention")} road work, a full lot or a parking ticket, so leave a few extra minutes.`,
  },
  {
    aspect: "care",
    question: "Do the practitioners explain what they are doing?",
    answer: (pos, neg) =>
      `${pos("say")} they were listened to and had each step explained. ${neg("describe")} feeling rushed or pushed into a long care plan.`,
  },
  {
    aspect: "staff",
    question: "Is the front desk helpful?",
    answer: (pos, neg) =>
      `${pos("describe")} a friendly front desk that remembers names and sorts out paperwork. ${neg("mention")} a mix-up or a rude reply.`,
  },
  {
    aspect: "facility",
    question: "Is the clinic clean?",
    answer: (pos, neg) =>
      `${pos("call")} it clean and quiet. ${neg("mention")} a room not cleaned or noise through the walls.`,
  },
];

interface Tally {
  positive: number;
  negative: number;
  /** Newest first, three each: enough to pick three distinct reviews. */
  newestPositive: GeneratedReview[];
  newestNegative: GeneratedReview[];
}

export interface FaqCollector {
  add(review: GeneratedReview): void;
  /** The faq.yaml text; `faq: []` when no topic has evidence. */
  render(): string;
}

export function createFaqCollector(): FaqCollector {
  const tallies = TOPICS.map((): Tally => ({ positive: 0, negative: 0, newestPositive: [], newestNegative: [] }));
  const keep = (list: GeneratedReview[], review: GeneratedReview, max: number) => {
    list.push(review);
    list.sort(compareReviews);
    if (list.length > max) list.pop();
  };
  return {
    add(review) {
      TOPICS.forEach((topic, i) => {
        const tally = tallies[i] as Tally;
        const hits = review.topics.filter((t) => t.aspect === topic.aspect);
        const praised = hits.some((t) => t.positive && (!topic.negatedPraise || t.negated));
        const faulted = hits.some((t) => !t.positive);
        if (praised) {
          tally.positive++;
          keep(tally.newestPositive, review, 3);
        }
        if (faulted) {
          tally.negative++;
          if (!topic.negatedPraise) keep(tally.newestNegative, review, 3);
        }
      });
    },
    render() {
      const entries = TOPICS.flatMap((topic, i) => {
        const tally = tallies[i] as Tally;
        if (tally.newestPositive.length === 0) return [];
        // Two reviews for the answer's first claim and one for the second, never the same twice.
        const praise = tally.newestPositive.slice(0, 2).map((r) => r.id);
        const fault = tally.newestNegative.map((r) => r.id).find((id) => !praise.includes(id));
        const evidence = fault === undefined ? praise : [...praise, fault];
        const answer = topic.answer(counted(tally.positive), counted(tally.negative));
        return [
          [
            `  - question: ${yamlScalar(topic.question)}`,
            "    answer: >-",
            ...wrap(answer, 92).map((line) => `      ${line}`),
            "    evidence:",
            ...evidence.map((id) => `      - ${id}`),
          ].join("\n"),
        ];
      });
      const header = "# Synthetic FAQ written by scripts/generate.ts. Evidence ids refer to files under reviews/.\n";
      return entries.length === 0 ? `${header}faq: []\n` : `${header}faq:\n${entries.join("\n")}\n`;
    },
  };
}

function counted(n: number): Counted {
  const digits = String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (verb) => (n === 1 ? `One review ${verb}s` : n === 0 ? `No reviews ${verb}` : `${digits} reviews ${verb}`);
}

/** Folded-block lines: joined back with single spaces, so breaks may only replace a space. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}
