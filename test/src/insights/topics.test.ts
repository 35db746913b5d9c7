import { describe, expect, it } from "vitest";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { createTopicCounter, topicCandidates } from "../../../src/insights/topics.ts";

/** Recurring topics from reviews written for this test: whole noun phrases only, no near-duplicates. */
const analyzer = createAnalyzer();

const topics = (texts: readonly string[]) => {
  const counter = createTopicCounter();
  texts.forEach((text, order) => {
    counter.add(order, topicCandidates(analyzer.clauses(text), new Set()));
  });
  return counter.finish((order) => `r${order}`).map((t) => `${t.phrase}:${t.count}`);
};

describe("recurring topics", () => {
  it("drop a phrase that only ever comes inside a longer one", () => {
    expect(
      topics([
        "Her deep tissue work is firm.",
        "Deep tissue work from Jenna fixed my calves.",
        "She did some soft tissue work on my shoulder.",
        "More soft tissue work this time.",
      ]),
    ).toEqual(["deep tissue work:2", "soft tissue work:2"]);
  });

  it("drop a phrase cut from the front or the back of a noun phrase", () => {
    const found = topics([
      "I went for a free posture screening at the mall.",
      "The free posture screening was quick.",
      "They had a same day appointment for me.",
      "I got a same day appointment again.",
    ]);
    expect(found).toContain("free posture screening:2");
    expect(found.filter((t) => t.startsWith("free posture:") || t.startsWith("posture screening:"))).toEqual([]);
    expect(found.filter((t) => t.startsWith("day appointment:"))).toEqual([]);
  });

  it("drop a phrase cut after a describing word that wink lists as a stop word", () => {
    // "front" is one of wink's stop words, so the run of nouns starts at "desk"; the phrase as written is "front desk staff".
    const found = topics([
      "The front desk staff were rude.",
      "Honestly the front desk staff were lovely.",
      "They offered several treatment plans.",
      "Several treatment plans later, I am better.",
    ]);
    expect(found.filter((t) => t.startsWith("desk staff:"))).toEqual([]);
    expect(found).toContain("treatment plans:2");
  });

  it("publish one of two phrases when one holds the other", () => {
    expect(
      topics([
        "The treatment plan was clear.",
        "I liked the treatment plan.",
        "A long treatment plan, but worth it.",
        "Another long treatment plan for me.",
      ]),
    ).toEqual(["treatment plan:4"]);
  });

  it("drop a phrase opened by a word that only praises, in any degree", () => {
    // "nice" and "great" were dropped, "nicest" and "greatest" published ("nicest people:87" of 2,000 generated reviews).
    const found = topics([
      "The front desk staff are the nicest people, always smiling.",
      "Honestly the nicest people in town.",
      "They have the greatest massage chairs.",
      "The greatest massage chairs I have sat in.",
      "A clear explanation every time.",
      "She gave a clear explanation of my x-rays.",
    ]);
    expect(found.filter((t) => /^(nicest|greatest) /.test(t))).toEqual([]);
    expect(found).toContain("clear explanation:2");
    expect(found).toContain("massage chairs:2");
  });

  it("drop a phrase cut after a gerund that wink tags as a verb", () => {
    // Opening a sentence, wink tags "Waiting" in "Waiting room chairs" as a verb, so the run of nouns
    // started at "room": "room chairs" was published as a topic.
    const found = topics([
      "Waiting room chairs are hard on a bad back.",
      "Waiting room chairs could be comfier.",
      "I love seeing friendly staff.",
      "Always friendly staff.",
    ]);
    expect(found.filter((t) => t.startsWith("room chairs:"))).toEqual([]);
    expect(found).toContain("friendly staff:2");
  });
});
