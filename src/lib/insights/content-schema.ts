import { z } from "zod";
import { Id } from "../content-schema.ts";

/**
 * Schemas of the editorial insight files under `content/insights/`. Messages complete
 * "`file: field: <message>, got <value>`" like the review schemas do.
 */

const Text = (what: string, max: number) =>
  z
    .string({ error: `expected ${what} as text` })
    .trim()
    .min(1, { error: `expected a non-empty ${what}` })
    .max(max, { error: `expected ${what} of at most ${max} characters` });

/** A term can only ever match if it has a word character; "!!" would silently never fire. */
const Term = Text("term", 80).refine((s) => /[\p{L}\p{N}]/u.test(s), {
  error: "expected a word or phrase with at least one letter or digit",
});

export const AspectDefinitionSchema = z.strictObject(
  {
    id: Id,
    label: Text("label", 120),
    terms: z.array(Term, { error: "expected a list of terms" }).min(1, { error: "expected at least one term" }),
    /**
     * Terms that name the aspect without judging it, such as symptoms ("pain", "sciatica"). They
     * detect the aspect like `terms`, but their own sentiment is left out of the clause's score
     * unless they are negated: "came in with neck pain" is not a complaint, "no pain at all" is praise.
     */
    neutral_terms: z.array(Term, { error: "expected a list of terms" }).default([]),
    /**
     * When true, a clause naming one of the review's technicians also mentions this aspect, so
     * "Dr. Patel was great" counts for the care aspect without listing every name as a term.
     */
    technician_names: z.boolean({ error: "expected true or false" }).default(false),
  },
  { error: "expected an aspect with id, label and terms" },
);
export type AspectDefinition = z.infer<typeof AspectDefinitionSchema>;

export const AspectsFileSchema = z.strictObject(
  {
    aspects: z
      .array(AspectDefinitionSchema, { error: "expected a list of aspects" })
      .min(1, { error: "expected at least one aspect" }),
  },
  { error: "expected a YAML mapping with an aspects list" },
);

export const FaqItemSchema = z.strictObject(
  {
    question: Text("question", 300),
    answer: Text("answer", 5000),
    evidence: z.array(Id, { error: "expected a list of review ids" }).default([]),
  },
  { error: "expected an entry with question, answer and optional evidence" },
);
export type FaqItem = z.infer<typeof FaqItemSchema>;

export const FaqFileSchema = z.strictObject(
  { faq: z.array(FaqItemSchema, { error: "expected a list of questions" }) },
  { error: "expected a YAML mapping with a faq list" },
);

export const SummaryTextSchema = Text("editorial summary", 20_000);

/** The validated editorial input of the insights: what the `insights` collection stores. */
export const InsightsContentSchema = z.strictObject({
  aspects: z.array(AspectDefinitionSchema),
  faq: z.array(FaqItemSchema),
  summary: z.string(),
});
export type InsightsContent = z.infer<typeof InsightsContentSchema>;
