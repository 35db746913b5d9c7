import { z } from "zod";
import { CalendarDate, Id, MAX_IDS } from "../content/schema.ts";
import { LearnedModelSchema } from "./learned.ts";

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
    /**
     * Given names that, said without a title, name someone of this aspect: "kayla at the desk",
     * "Marcus found me a slot". Like a technician's name, a name says who was there, not how it went;
     * after "Dr." or where it is one of the review's technicians, it is the practitioner's.
     */
    given_names: z.array(Term, { error: "expected a list of names" }).default([]),
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

const Terms = z.array(Term, { error: "expected a list of words or phrases" });

/**
 * `sentiment.yaml`: the domain vocabulary of the sentiment analysis, kept as content so an editor
 * can teach it a new word without a code change. See docs/insights.md for how each list is used.
 */
const AspectTerms = z.strictObject(
  { aspect: Id, terms: Terms.min(1, { error: "expected at least one term" }) },
  { error: "expected a mapping with aspect and terms" },
);

export const SentimentLexiconSchema = z.strictObject(
  {
    /**
     * Condition and symptom words ("sciatica", "herniated"): why a patient came, not how they were
     * treated. Neutral alone; each detects its aspect, and its polarity comes from an outcome
     * attached to it ("gone", "came back") or from a negation ("no more headaches").
     */
    conditions: z
      .array(
        z.strictObject(
          {
            aspect: Id,
            terms: Terms.min(1, { error: "expected at least one term" }),
            /** Body parts and the like: they detect the aspect only in a clause with an opinion about them. */
            needs_evidence: z.boolean({ error: "expected true or false" }).default(false),
            /**
             * Whether an adjective right before the term judges it ("terrible wait times") rather
             * than describing a symptom ("terrible back pain", which is ignored).
             */
            adjectives_judge: z.boolean({ error: "expected true or false" }).default(false),
          },
          { error: "expected an entry with aspect and terms" },
        ),
        { error: "expected a list of {aspect, terms} entries" },
      )
      .default([]),
    /** Words that say how a condition ended up; they only count in a clause that names a condition. */
    outcomes: z
      .strictObject(
        { positive: Terms.default([]), negative: Terms.default([]) },
        { error: "expected a mapping with positive and negative lists" },
      )
      .default({ positive: [], negative: [] }),
    /** Opinion words and phrases of this domain that the general lexicon lacks or misreads. */
    words: z
      .strictObject(
        { positive: Terms.default([]), negative: Terms.default([]) },
        { error: "expected a mapping with positive and negative lists" },
      )
      .default({ positive: [], negative: [] }),
    /** General-lexicon words that carry no opinion here ("crack" is a technique, "still" an adverb). */
    neutral: Terms.default([]),
    /**
     * Words that voice an expectation or a fear ("expected", "afraid"): followed by a contrast, the
     * clause is what did not happen ("I expected it to hurt, but it never did").
     */
    expectations: Terms.default([]),
    /** Expectations that voice a fear ("afraid", "dreading"): what was expected was bad, whatever its words. */
    fears: Terms.default([]),
    /** Expectations that voice a hope ("hoped", "hopeful"): what was expected was good. */
    hopes: Terms.default([]),
    /**
     * Other providers ("my GP", "the walk-in clinic", "other chiropractors"): a clause that opens with
     * one tells of them, not of this practice, and speaks for none of its aspects.
     */
    elsewhere: Terms.default([]),
    /**
     * Words that say the result is not known yet ("too early to tell", "can't say yet whether it's
     * working"): the review tells no result of `aspect`, so the pain it told is why the patient came.
     */
    undecided: AspectTerms.optional(),
    /** Everyday activities ("stand", "get into"): "I could barely stand" is about `aspect`. */
    abilities: AspectTerms.optional(),
    /** The treatment itself ("adjustment"): when it did not hurt, that speaks for `aspect` too. */
    treatments: AspectTerms.optional(),
    /** The aspect a long delay ("three weeks out") speaks for when the clause names it. */
    delays: Id.optional(),
    /** The aspect money spent beside a poor result ("$400 later my back still aches") complains of, and a little amount ("only $35") praises. */
    spending: Id.optional(),
    /** The aspect a short trip to the practice ("five minutes from my house") praises. */
    nearby: Id.optional(),
  },
  { error: "expected a YAML mapping with conditions, outcomes, words and neutral" },
);
export type SentimentLexicon = z.infer<typeof SentimentLexiconSchema>;

export const EMPTY_LEXICON: SentimentLexicon = {
  conditions: [],
  outcomes: { positive: [], negative: [] },
  words: { positive: [], negative: [] },
  neutral: [],
  expectations: [],
  fears: [],
  hopes: [],
  elsewhere: [],
};

export const FaqItemSchema = z.strictObject(
  {
    question: Text("question", 300),
    answer: Text("answer", 5000),
    evidence: z
      .array(Id, { error: "expected a list of review ids" })
      .max(MAX_IDS, { error: `expected at most ${MAX_IDS} review ids` })
      .default([]),
  },
  { error: "expected an entry with question, answer and optional evidence" },
);
export type FaqItem = z.infer<typeof FaqItemSchema>;

/** When the practice last reviewed an editorial file: shown beside the text, never taken from a clock. */
const Reviewed = CalendarDate.optional();

export const FaqFileSchema = z.strictObject(
  { reviewed: Reviewed, faq: z.array(FaqItemSchema, { error: "expected a list of questions" }) },
  { error: "expected a YAML mapping with a faq list and an optional reviewed date" },
);

export const SummaryTextSchema = Text("editorial summary", 20_000);

/** `summary.md`'s optional front matter, between `---` lines at the top of the file. */
export const SummaryFrontMatterSchema = z.strictObject(
  { reviewed: Reviewed },
  { error: "expected front matter with a reviewed date" },
);

/** The validated editorial input of the insights: what the `insights` collection stores. */
export const InsightsContentSchema = z.strictObject({
  aspects: z.array(AspectDefinitionSchema),
  lexicon: SentimentLexiconSchema,
  faq: z.array(FaqItemSchema),
  summary: z.string(),
  /** The `reviewed:` dates of summary.md and faq.yaml, when the practice gave them. */
  summary_reviewed: CalendarDate.optional(),
  faq_reviewed: CalendarDate.optional(),
  /** `model.json`: the learned models, when the content has them (learned.ts). */
  model: LearnedModelSchema.optional(),
});
export type InsightsContent = z.infer<typeof InsightsContentSchema>;
