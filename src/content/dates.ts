/**
 * Calendar-date helpers. Dates in content and queries are plain `YYYY-MM-DD` strings compared
 * lexically, which is correct for that format and avoids time-zone drift.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Proleptic Gregorian leap year, as ISO 8601 counts it: year 0 (1 BC) is one. */
export function isLeapYear(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

/** Days in month `mo` (1-12) of year `y`. */
export function daysInMonth(y: number, mo: number): number {
  return mo === 2 && isLeapYear(y) ? 29 : (MONTH_DAYS[mo - 1] as number);
}

/**
 * True when `s` is `YYYY-MM-DD` and names a day that exists (no 2024-02-30). Computed, not via
 * `Date.UTC`, which maps years 0-99 to 1900-1999 and so rejected `0000-02-29`.
 */
export function isCalendarDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysInMonth(y, mo);
}

/**
 * RFC 3339 date-time with a mandatory offset, e.g. `2024-03-15T09:12:00Z`. Upper-case `T` and `Z`
 * only: RFC 3339 allows lower case, but the value is copied into Atom, whose `xsd:dateTime` does not.
 */
const RFC3339 = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

export function isRfc3339(s: string): boolean {
  const m = RFC3339.exec(s);
  return m !== null && isCalendarDate(m[1] as string) && !Number.isNaN(Date.parse(s));
}

/** Today's date in UTC as `YYYY-MM-DD`, for a given clock reading. */
export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` at 00:00 UTC in epoch milliseconds. */
export function dateToMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** Milliseconds to an RFC 3339 UTC timestamp without fractional seconds. */
export function msToRfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
