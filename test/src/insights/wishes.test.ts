import { beforeAll, describe, expect, it } from "vitest";
import { createAnnotator } from "../../../src/insights/annotate.ts";
import { features } from "../../../src/insights/learned.ts";
import { createAnalyzer } from "../../../src/insights/nlp.ts";
import { wishAt } from "../../../src/insights/wishes.ts";
import { plainReview, rulesOnly } from "../../helpers/project-insights.ts";

/**
 * A wish for better is a complaint about what is: "could be friendlier", "could use a good clean",
 * "should have been clearer". The rules flip the opinion word a wish governs, and the learned models
 * see it as a negation (`not_friendly`); a negated modal ("couldn't be friendlier") stays praise.
 */
const analyzer = createAnalyzer();
const clauseOf = (text: string) => {
  const [c] = analyzer.clauses(text);
  if (!c) throw new Error(`no clause in ${text}`);
  return c;
};
/** The word after which the wish at the first "could"/"should" governs, or null. */
const governsAfter = (text: string) => {
  const c = clauseOf(text);
  for (let i = c.start; i < c.end; i++) {
    const at = wishAt(c.tokens.normals, c.tokens.lemmas, i, c.end);
    if (at >= 0) return c.tokens.normals[at] as string;
  }
  return null;
};

describe("wishAt", () => {
  it("finds the wish and where it starts to govern", () => {
    expect(governsAfter("The front desk could be friendlier.")).toBe("be");
    expect(governsAfter("Some of the staff could be a touch friendlier.")).toBe("touch");
    expect(governsAfter("The staff could be a little more welcoming.")).toBe("more");
    expect(governsAfter("The lobby could use a paint job.")).toBe("use");
    expect(governsAfter("Billing should have been clearer.")).toBe("been");
  });

  it("lets a hedge stand between the modal and the wish, and reads 'could do with' as 'could use'", () => {
    expect(governsAfter("The treatment rooms could perhaps be a little warmer.")).toBe("little");
    expect(governsAfter("The waiting room could really use new chairs.")).toBe("use");
    expect(governsAfter("Whoever books you in could do with a smile.")).toBe("with");
    expect(governsAfter("The doctor could maybe not be kinder.")).toBeNull();
  });

  it("reads a deed wished for 'once in a while' or 'for once' as done too rarely", () => {
    expect(governsAfter("The receptionist could say hello once in a while.")).toBe("could");
    expect(governsAfter("They should pick up the phone for once.")).toBe("should");
    expect(governsAfter("You could walk there from the station.")).toBeNull();
    // Advice to the reader or the patient's own plan: what is done too rarely is not the practice's.
    expect(governsAfter("Everyone should get a great adjustment like this once in a while.")).toBeNull();
    expect(governsAfter("I should come in for a tune-up now and then.")).toBeNull();
  });

  it("reads a wish in 'would be … if' only where the condition wishes a comparative of what is", () => {
    expect(governsAfter("Would be 5 stars if they were clearer on insurance.")).toBe("were");
    expect(governsAfter("If only the waiting room was warmer.")).toBe("was");
    // "would be perfect if I could ever get an appointment" is a complaint, but "It would be great if
    // more chiropractors were like Dr. Kim" and "would be worth it even if he charged double" praise.
    expect(governsAfter("It would be great if more chiropractors were like Dr. Kim.")).toBeNull();
    expect(governsAfter("Dr. Kim would be worth it even if he charged double.")).toBeNull();
  });

  it("finds none in a negated modal, a statement of what can happen, or past the clause", () => {
    expect(governsAfter("The staff couldn't be friendlier.")).toBeNull();
    expect(governsAfter("Could not be happier with my results.")).toBeNull();
    expect(governsAfter("I was warned the waits could be long.")).toBeNull();
    expect(governsAfter("It could be that my back was just tired, but it helped.")).toBeNull();
  });
});

describe("a wish in the rules and the models", () => {
  let sideOf: (text: string, aspect: string) => string | undefined;
  beforeAll(async () => {
    const { insights, business } = await rulesOnly();
    const rules = createAnnotator(insights, business, analyzer, { reading: "rules" });
    sideOf = (text, aspect) => rules.annotate(plainReview(text, 3)).aspects.find((a) => a.id === aspect)?.sentiment;
  });

  it("reads as a complaint by the rules, and a negated modal as praise", () => {
    expect(sideOf("The front desk could be friendlier.", "staff")).toBe("negative");
    expect(sideOf("Billing could be clearer about what insurance covers.", "billing")).toBe("negative");
    expect(sideOf("The treatment rooms could perhaps be a little warmer in winter.", "facility")).toBe("negative");
    expect(sideOf("The staff couldn't have been friendlier.", "staff")).toBe("positive");
    expect(sideOf("The front desk could crack a smile once in a while.", "staff")).toBe("negative");
    // A comparative the lexicon lacks is worth its lemma, in a wish or not.
    expect(sideOf("The front desk is friendlier than at my old clinic.", "staff")).toBe("positive");
  });

  it("reads 'wish I could say the same for' as a complaint about what follows", () => {
    expect(governsAfter("Wish I could say the same for the billing statements.")).toBe("same");
    expect(sideOf("The desk was quick; I wish I could say the same for my results.", "pain-relief")).toBe("negative");
    // Without its "I" the wish is no praise either ("wish" alone is a glad word to wink).
    expect(sideOf("Wish I could say the same for the billing statements.", "billing")).toBe("negative");
  });

  it("reads a wish for what they would do or for a comparative as a complaint, with or without its 'I'", () => {
    expect(governsAfter("I wish the visits were a bit cheaper.")).toBe("bit");
    expect(sideOf("Handy spot, but I wish the visits were cheaper.", "billing")).toBe("negative");
    expect(sideOf("Wish they'd stop raising the prices every year.", "billing")).toBe("negative");
    expect(sideOf("Wish the parking lot was bigger.", "location")).toBe("negative");
  });

  it("reads praise of what would be, given an if, as none, and what the if wants as wished for", () => {
    expect(sideOf("It would have been perfect if the rooms were bigger.", "facility")).toBe("negative");
    expect(sideOf("Would be 5 stars if they were clearer on insurance.", "billing")).toBe("negative");
    expect(sideOf("Dr. Kim would be worth it even if he charged double.", "care")).toBe("positive");
  });

  it("reads what the writer would do, were it not for a fault, as no praise and the fault as what is", () => {
    expect(sideOf("I would go back if it wasn't so expensive.", "billing")).toBe("negative");
    expect(sideOf("I'd recommend them if the front desk weren't so rude.", "staff")).toBe("negative");
    // A condition that denies nothing, or a main clause that denies, is read as before.
    expect(sideOf("I would recommend Dr. Kim to anyone if you have back pain.", "care")).toBe("positive");
  });

  it("reads what the if denies as what is ('would be fine if I weren't kept waiting')", () => {
    expect(sideOf("The drive would be fine if I weren't kept waiting half an hour after it.", "scheduling")).toBe(
      "negative",
    );
    expect(sideOf("Would be five stars if the front desk wasn't so rude.", "staff")).toBe("negative");
  });

  it("cuts an unpunctuated wish from what came before, and reads what it wishes away as a complaint", () => {
    const sides = (text: string) => ["pain-relief", "scheduling"].map((a) => sideOf(text, a));
    expect(sides("neck feels way better just wish it wasnt so hard to get an appt")).toEqual(["positive", "negative"]);
    expect(sides("My neck is loads better, I just wish I didn't have to wait three weeks between visits.")).toEqual([
      "positive",
      "negative",
    ]);
  });

  it("cuts no wish from its negator or modal: 'wouldn't wish it on anyone' is one thought", () => {
    expect(analyzer.clauses("You couldn't wish for nicer staff.")).toHaveLength(1);
    expect(analyzer.clauses("I would never wish sciatica on anyone.")).toHaveLength(1);
    const text = "Wouldn't wish sciatica on my worst enemy but Dr. Kim got rid of mine.";
    expect(sideOf(text, "pain-relief")).toBe("positive");
  });

  it("marks what it governs as negated in the learned models' features", () => {
    const c = clauseOf("The front desk could be friendlier.");
    const f = features(c.tokens, c.start, c.end);
    expect(f).toContain("not_friendly");
    expect(f).not.toContain("friendly");
    const plain = clauseOf("The front desk is friendlier.");
    expect(features(plain.tokens, plain.start, plain.end)).toContain("friendly");
  });
});
