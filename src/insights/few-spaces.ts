import type { Clause } from "./nlp.ts";

/**
 * Room to park for a few cars ("the lot only fits about six cars", "there are only four spaces",
 * "just 2 spots for patients"): too little parking, a complaint about getting there (`nearby` in
 * sentiment.yaml), with no opinion word. A larger count ("room for 40 cars"), a count with no word
 * of littleness ("we have 3 cars"), one that is gone ("used to fit only five cars") or denied ("not
 * just two spaces anymore") is left to the words around it, and so are places that are times to
 * book ("only two spots left this week") or the patient's own ("only one spot on my back hurts").
 */

/** The most places to park still told as few. */
const FEW = 10;
const COUNTS = new Map(
  ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"].map((w, k) => [w, k + 1]),
);
/** Words of littleness before the count: "only four spaces", "just 2 spots". */
const LITTLE = new Set(["only", "just"]);
/** Verbs of how many a lot takes: "fits about six cars", "holds maybe 4 cars". */
const TAKES = new Set(["fit", "hold"]);
/** Hedges between the verb or "only" and the count: "fits like 6 cars", "only about five spots". */
const HEDGES = new Set(["like", "about", "around", "maybe", "roughly", "approx", "approximately"]);
/** What is counted: places to park, or the cars a lot takes (only after a verb of taking or "room for"). */
const PLACES = new Set(["spot", "spots", "space", "spaces", "stall", "stalls"]);
const CARS = new Set(["car", "cars"]);
/** Words after the places that make them times to book: "only two spots left this week", "just one space open". */
const TO_BOOK = new Set(["left", "open", "available", "remaining", "free"]);
/** Times the places are counted in, which make them times to book: "only 2 spots for new patients each week". */
const TIMES = new Set(
  "day days week weeks month months weekend weekends today tomorrow morning mornings afternoon afternoons evening evenings"
    .split(" ")
    .concat("monday tuesday wednesday thursday friday saturday sunday".split(" ").flatMap((d) => [d, `${d}s`])),
);
/** Rooms, furniture and papers, whose places are no parking: "only 3 spots in the waiting room", "one space on the form". */
const INSIDE = new Set("room rooms lobby table tables chair chairs form forms chart sheet page".split(" "));
/** The patient's own, after "on" or "in": "only two spots on my back were tender". */
const OWNERS = new Set(["my", "his", "her", "your", "their", "our"]);

/** Where the clause tells room to park for only a few cars (the count), or -1. */
export function fewSpaces(clause: Clause): number {
  const { normals, lemmas, start, end } = { ...clause.tokens, start: clause.start, end: clause.end };
  // "it used to fit only five cars": room the practice no longer lacks.
  if (normals.slice(start, end).includes("used")) return -1;
  for (let i = start + 1; i < end - 1; i++) {
    const count = normals[i] as string;
    const n = /^\d+$/.test(count) ? Number(count) : (COUNTS.get(count) ?? -1);
    if (n < 1 || n > FEW) continue;
    // "six cars", "four parking spaces".
    const k = normals[i + 1] === "parking" ? i + 2 : i + 1;
    const cars = CARS.has(normals[k] as string);
    if (!cars && !PLACES.has(normals[k] as string)) continue;
    if (TO_BOOK.has(normals[k + 1] as string) || OWNERS.has(normals[k + 2] as string)) continue;
    // "only 2 spots for new patients each week", "three spots a day": places in a schedule.
    if (normals.slice(k + 1, k + 6).some((w) => TIMES.has(w))) continue;
    // "two spots of redness", "two spaces between the tables", "three spots in the waiting room":
    // places of something else, or inside.
    if (normals[k + 1] === "of" || normals[k + 1] === "between") continue;
    if (normals.slice(k + 1, k + 5).some((w) => INSIDE.has(w))) continue;
    let j = i - 1;
    if (HEDGES.has(normals[j] as string) && j > start) j--;
    // "only two cars ahead of me" counts cars, not room for them: "fits six cars", "room for 4 cars".
    const takes = TAKES.has(lemmas[j] as string) || (normals[j] === "for" && normals[j - 1] === "room");
    const little = takes || (!cars && LITTLE.has(normals[j] as string));
    // "not just two spaces anymore", "doesn't fit only six cars": the littleness denied.
    const denied = ["not", "n't", "never"].includes(normals[j - 1] as string);
    if (little && !denied) return i;
  }
  return -1;
}
