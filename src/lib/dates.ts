/**
 * Calendar-date helpers. Dates in content and queries are plain `YYYY-MM-DD` strings compared
 * lexically, which is correct for that format and avoids time-zone drift.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `s` is `YYYY-MM-DD` and names a day that exists (no 2024-02-30). */
export function isCalendarDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
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
