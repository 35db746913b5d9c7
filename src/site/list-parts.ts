/**
 * Long lists of reviews cut into pages ("parts"), newest first, the first part at the list's own
 * address and the others under `page/<n>/`. The evidence pages and the month archives are cut this
 * way, so no page grows with the number of reviews: at 100,000 reviews an aspect's list is tens of
 * thousands of reviews and a month's is two thousand, pages of megabytes that no reader can use and
 * that a build holds in memory several times over while it writes them.
 */

/** The segment before a part's number: `/insights/care/page/2/`, `/reviews/2026/11/page/2/`. */
export const PART_SEGMENT = "page";

/** One page of a list: its items `from` to `to` (end excluded), part `n` of `of`. */
export interface ListPart {
  path: string;
  n: number;
  of: number;
  from: number;
  to: number;
}

/** The address of part `n` (from 1) of the list at `path`: the first part is `path` itself. */
export function partPath(path: string, n: number): string {
  return n === 1 ? path : `${path}${PART_SEGMENT}/${n}/`;
}

/** The pages of a list of `count` items at `path`, `size` to a page: one, empty, when there are none. */
export function listParts(path: string, count: number, size: number): ListPart[] {
  const of = Math.max(1, Math.ceil(count / size));
  return Array.from({ length: of }, (_, i) => ({
    path: partPath(path, i + 1),
    n: i + 1,
    of,
    from: i * size,
    to: Math.min(count, (i + 1) * size),
  }));
}

/** A page's heading: the list's own, and which part it is when there are several. */
export function partTitle(title: string, part: Pick<ListPart, "n" | "of">): string {
  return part.of === 1 ? title : `${title} (page ${part.n} of ${part.of})`;
}

/** A page's description: the list's own, and after the first part which entries it holds, so no two parts share one. */
export function partDescription(description: string, part: Pick<ListPart, "n" | "of" | "from" | "to">): string {
  return part.n === 1
    ? description
    : `${description} Page ${part.n} of ${part.of}: entries ${part.from + 1}–${part.to}.`;
}
