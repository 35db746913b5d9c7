import { isCalendarDate } from "./dates.ts";

/**
 * The ISO date an editor meant when they wrote a date the way people do (`11/28/2026`,
 * `28.11.2026`, `Nov 28 2026`), so a message can say what to write instead. Content dates are
 * `YYYY-MM-DD` only: these forms are read to suggest, never accepted.
 */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

const iso = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

/** A real day as `YYYY-MM-DD`, or undefined. */
function day(y: number, m: number, d: number): string | undefined {
  const s = iso(y, m, d);
  return y >= 1000 && isCalendarDate(s) ? s : undefined;
}

function monthOf(word: string): number | undefined {
  const i = MONTHS.indexOf(word.slice(0, 3).toLowerCase());
  // "Sept" and full names are fine; "Novxyz" is not a month.
  const full =
    /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)$/i;
  return i >= 0 && full.test(word) ? i + 1 : undefined;
}

/**
 * `{iso}` for a date written in a common form; `alt` when the form is ambiguous (`03/04/2026` is
 * 4 March in the US and 3 April elsewhere: `iso` is the US reading, `alt` the other).
 */
export function isoDateFor(written: unknown): { iso: string; alt?: string } | undefined {
  if (typeof written !== "string") return undefined;
  const s = written.trim();
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ].*)?$/.exec(s);
  if (m) {
    const found = day(Number(m[1]), Number(m[2]), Number(m[3]));
    // Compared with the date as written: the right date with a space around it is told to drop it.
    return found && found !== written ? { iso: found } : undefined;
  }
  // Dots are written day first (28.11.2026).
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s);
  if (m) {
    const found = day(Number(m[3]), Number(m[2]), Number(m[1]));
    return found ? { iso: found } : undefined;
  }
  m = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(s);
  if (m) {
    const [a, b, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const us = day(y, a, b);
    const other = day(y, b, a);
    if (us && other && us !== other) return { iso: us, alt: other };
    const found = us ?? other;
    return found ? { iso: found } : undefined;
  }
  // Nov 28 2026, Nov. 28, 2026, November 28th, 2026
  m = /^([A-Za-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/.exec(s);
  if (m) {
    const month = monthOf(m[1] as string);
    const found = month && day(Number(m[3]), month, Number(m[2]));
    return found ? { iso: found } : undefined;
  }
  // 28 Nov 2026, 28 November, 2026
  m = /^(\d{1,2})(?:st|nd|rd|th)? ([A-Za-z]+)\.?,? (\d{4})$/.exec(s);
  if (m) {
    const month = monthOf(m[2] as string);
    const found = month && day(Number(m[3]), month, Number(m[1]));
    return found ? { iso: found } : undefined;
  }
  return undefined;
}

/** The schema's message for a date that is not `YYYY-MM-DD`: what to write instead when it can tell. */
export function dateMessage(written: unknown): string {
  const fix = isoDateFor(written);
  if (!fix) return "expected a real calendar date as YYYY-MM-DD";
  const alt = fix.alt ? ` (or ${fix.alt} if the day comes first)` : "";
  return `expected a date as YYYY-MM-DD — write ${fix.iso}${alt} instead`;
}
