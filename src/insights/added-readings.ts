import type { AspectDefinition, SentimentLexicon } from "./content-schema.ts";
import { compileLowPrice } from "./low-price.ts";
import { compileSpentForNothing } from "./money-spent.ts";
import { compileNearby } from "./nearby.ts";
import type { Clause } from "./nlp.ts";
import type { AspectReading } from "./readings.ts";

/**
 * The constructions that add a reading of their own to a clause once its words are read, each
 * where the clause reads no side of its own for that aspect: money spent for nothing, a short trip
 * to the practice, a little amount.
 */
export function compileAddedReadings(
  lexicon: SentimentLexicon,
  aspects: readonly AspectDefinition[],
): ((clause: Clause, found: AspectReading[]) => void)[] {
  return [compileSpentForNothing, compileNearby, compileLowPrice].map((compile) => compile(lexicon, aspects));
}
