import type { Clause } from "./nlp.ts";

/**
 * A short trip to the practice ("five minutes from my house", "a 2 min walk from my job", "ten
 * minutes away"): how near it is, praise of where it is (`nearby` in sentiment.yaml), with no
 * opinion word. Longer trips are left to the words around them: twenty minutes is mostly told as a
 * fact and forty as a complaint, and a hedge ("about ten minutes from work") tells a fact too.
 */

/** The longest trip in minutes still told as near. */
const NEAR_MINUTES = 10;
const COUNTS = new Map(
  ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"].map((w, k) => [w, k + 1]),
);
const MINUTES = new Set(["min", "mins", "minute", "minutes"]);
/** How the trip is made, between the unit and "from": "a five minute walk from the station". */
const MEANS = new Set(["drive", "walk", "ride", "bike", "trip"]);
/** Hedges before the count that tell a fact, not a convenience: "about ten minutes from work". */
const HEDGES = new Set(["about", "around", "roughly", "approximately", "approx", "maybe"]);
/** Words before the count that deny the nearness: "not five minutes from me", "no longer ten minutes away". */
const DENIED = new Set(["not", "n't", "never", "longer"]);
/** The patient, and being somewhere at a time: "I was", "we were". */
const PATIENT = new Set(["i", "we"]);
const BEING = new Set(["was", "were"]);
/** What may follow "from" and name when, not where: "from closing", "from the time I arrived". */
const TIMES = new Set(["closing", "close", "opening", "time", "moment", "start", "end", "beginning", "when"]);
/** What may follow "from" and name where the trip starts: "from my house", "from home", "from the exit". */
const PLACE_AFTER = new Set(["DET", "PRON", "NOUN", "PROPN", "NUM", "ADV"]);

/** Where the clause tells a short trip to the practice (the unit of time), or -1. */
export function shortTrip(clause: Clause): number {
  const { normals, pos, start, end } = { ...clause.tokens, start: clause.start, end: clause.end };
  // "it used to be 5 min from me": a nearness the practice no longer has.
  if (normals.slice(start, end).includes("used")) return -1;
  for (let i = start + 1; i < end - 1; i++) {
    if (!MINUTES.has(normals[i] as string)) continue;
    const count = normals[i - 1] as string;
    const n = /^\d+$/.test(count) ? Number(count) : (COUNTS.get(count) ?? -1);
    if (n < 1 || n > NEAR_MINUTES || HEDGES.has(normals[i - 2] as string)) continue;
    // "it's not five minutes from my house anymore", "no longer ten minutes away": a nearness denied;
    // "not even five minutes away" is nearer still.
    if (DENIED.has(normals[i - 2] as string)) continue;
    // "I was five minutes away when they cancelled", "we were only ten minutes away": where the patient
    // was then, not where the practice is; "I was glad it is five minutes away" still praises.
    const patientWas = (j: number) => PATIENT.has(normals[j] as string) && BEING.has(normals[j + 1] as string);
    if (patientWas(i - 3) || patientWas(i - 4)) continue;
    const k = MEANS.has(normals[i + 1] as string) ? i + 2 : i + 1;
    if (normals[k] === "away") return i;
    // "ten minutes from closing", "two minutes from the time he walked in": a time, no place.
    const from = pos[k + 1] === "DET" ? k + 2 : k + 1;
    if (normals[k] === "from" && PLACE_AFTER.has(pos[k + 1] as string) && !TIMES.has(normals[from] as string)) return i;
  }
  return -1;
}
