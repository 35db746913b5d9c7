import type { LogEntry } from "./entries.ts";

/**
 * Whether each entry's event is the one a build logs for its review's history (plan.ts,
 * docs/log.md "Entries"): `published` only for a review never on the list before, `amended` only
 * for one on the list, `restored` only after a withdrawal, and a withdrawal again only with
 * another reason or date. A log that calls a change to a listed review a new publication hides
 * the change from its counts and from the feeds, which date a change by its `amended` entry.
 * Logs written before a first appearance after a withdrawal was logged as `published` hold
 * `restored` there, which stays valid. The first entry that breaks these rules, as a sentence.
 */
export function historyProblem(entries: readonly LogEntry[]): string | undefined {
  const latest = new Map<string, { index: number; entry: LogEntry }>();
  const listed = new Set<string>();
  for (const [i, e] of entries.entries()) {
    const last = latest.get(e.id);
    const was = last ? `entry ${last.index} is ${last.entry.event}` : "it has no entry before";
    const at = `log entry ${i} (${e.id}) is logged as ${e.event}`;
    if (e.event === "published" && listed.has(e.id) && last)
      return `${at}, but the review was on the list already (${was}): a change is logged as amended, a return after a withdrawal as restored`;
    if (e.event === "amended" && (!last || last.entry.event === "withdrawn"))
      return `${at}, but the review is not on the list (${was})`;
    if (e.event === "restored" && last?.entry.event !== "withdrawn")
      return `${at}, but the review was not withdrawn (${was})`;
    if (
      e.event === "withdrawn" &&
      last?.entry.event === "withdrawn" &&
      last.entry.reason === e.reason &&
      last.entry.date === e.date
    )
      return `${at} again, with the reason and date of entry ${last.index}`;
    if (e.event !== "withdrawn") listed.add(e.id);
    latest.set(e.id, { index: i, entry: e });
  }
  return undefined;
}
