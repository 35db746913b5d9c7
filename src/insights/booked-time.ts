import type { Clause } from "./nlp.ts";

/**
 * A time of day the patient owns ("showed up for my 9am", "they scrapped my ten o'clock", "my 3:15
 * ran an hour over") is their appointment: it names the booking as "my appointment" does. A time
 * before a noun names something else ("my 1:00 meeting", "her 5pm class", "my 5pm pick up"), and a
 * time no one owns tells when something happened ("at 9am", "the 5pm traffic").
 */

const OWNERS = new Set(["my", "our", "his", "her", "their"]);
/** One token that is a time of day: "9am", "2:30pm", "3:15". */
const CLOCK = /^(?:\d{1,2}(?::\d\d)?(?:am|pm)|\d{1,2}:\d\d)$/;
/** What may follow the hour to make it a time of day: "9 am", "7 a.m.", "ten o'clock". */
const MARKS = new Set(["am", "pm", "a.m", "p.m", "a.m.", "p.m.", "o'clock", "oclock"]);
const HOURS = new Set("one two three four five six seven eight nine ten eleven twelve".split(" "));
/** Errands after the hour that tagging reads as verbs: "my 5pm pick up", "my 8am drop off". */
const ERRANDS = new Set(["pick", "drop"]);

/** The token range of the clause's owned time of day, or undefined. */
export function bookedTime(clause: Clause): { start: number; end: number } | undefined {
  const { tokens, start, end } = clause;
  const { normals, pos } = tokens;
  for (let i = start + 1; i < end; i++) {
    if (!OWNERS.has(normals[i - 1] as string)) continue;
    const n = normals[i] as string;
    let to = -1;
    if (CLOCK.test(n)) to = i + 1;
    else if ((/^\d{1,2}$/.test(n) || HOURS.has(n)) && MARKS.has(normals[i + 1] as string)) to = i + 2;
    if (to < 0 || (to < end && (pos[to] === "NOUN" || ERRANDS.has(normals[to] as string)))) continue;
    return { start: i, end: to };
  }
  return undefined;
}
