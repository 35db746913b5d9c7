import { parseArgs } from "node:util";
import PQueue from "p-queue";
import { z } from "zod";
import { reviewPath } from "../src/content/dataset.ts";
import { duplicateName } from "../src/content/json-names.ts";
import { failureCause, fetchBytes, fetchPolitely, httpReader, LogFetchError } from "../src/io/log-http.ts";
import { parentSite, readState, urlProblem, writeState } from "../src/io/monitor-args.ts";
import { atomProblems } from "../src/log/atom-check.ts";
import { feedProblems } from "../src/log/feed-check.ts";
import { homeProblems } from "../src/log/home-check.ts";
import { logPageProblems } from "../src/log/log-page-check.ts";
import { parseVerifierKey } from "../src/log/note-keys.ts";
import { pageProblems } from "../src/log/page-check.ts";
import { latestEntries } from "../src/log/plan.ts";
import { quoteProblems } from "../src/log/quote-check.ts";
import { aggregateProblem, checkSite, type ServedRecord } from "../src/log/site-check.ts";
import { LogVerifyError, type SeenCheckpoint, verifyLog } from "../src/log/verify.ts";
import { hrefOf } from "../src/urls.ts";

/**
 * `npm run log:verify -- --url <prefix> --key <vkey> [--site <url>] [--state FILE]`: a monitor of
 * the review log and of the site that publishes it, which anyone can run (docs/log.md). It checks
 * the checkpoint's signature with the pinned key, every tile and entry bundle, with --state that
 * the log extends the checkpoint it saw last (which it then records), and that the site's
 * `/reviews.json` is what the log says: every record opens its latest entry and names its own
 * permalink, every review the log lists as current is served, no withdrawn one is (its page
 * answers 404 or 410). Pages are read at the permalinks it derives, never at a record's `url`. Exit 0 when all of it holds, 1 when any does
 * not (one sentence per failure on stderr), 2 on wrong arguments (a malformed key or URL among them) or a
 * state file that cannot be read or written.
 */

const USAGE = `usage: npm run log:verify -- --url <log prefix> --key <verifier key> [--site <site URL>] [--state FILE] [--pages]

  --url    the log's URL prefix, e.g. https://reviews.example/log
  --key    the verifier key you pinned (never fetch it from the site each time)
  --site   the site whose /reviews.json is checked against the log; default the parent of --url
  --state  a file keeping the last checkpoint seen, to prove the next one extends it
  --pages  also read every review's page: its title, stars, author, dates, verification, reply, text and JSON-LD must be its record's
  --help   this text`;

/** Pages read at once. */
const PAGE_CONCURRENCY = 8;
/** Rate limits waited out per file (a monitor reading every page passes the service's 600 a minute). */
const RETRIES = 5;
/** A review's page is small; more than this is not one. */
const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/** The records of `/reviews.json` can be large: up to 512 MiB is read. */
const MAX_DATASET_BYTES = 512 * 1024 * 1024;

const DatasetSchema = z.object({
  business: z.unknown(),
  aggregate_rating: z.unknown(),
  reviews: z.array(z.looseObject({ id: z.string(), log_index: z.unknown(), log_nonce: z.unknown() })),
});

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const notIJson = (url: string, name: string) =>
  `${url} is not I-JSON: ${name} is a member name given twice in one object, and readers differ on which they keep (RFC 7493 section 2.3)`;

async function servedDataset(
  site: string,
  fetchImpl?: typeof fetch,
): Promise<{ url: string; business: unknown; aggregate: unknown; records: ServedRecord[] }> {
  const url = `${site.replace(/\/+$/, "")}/reviews.json`;
  const bytes = await fetchBytes(url, { fetch: fetchImpl, maxBytes: MAX_DATASET_BYTES, retries: RETRIES });
  if (!bytes) throw new LogVerifyError(`${url} is not found: the site serves no records to check against the log`);
  let json: unknown;
  const text = Buffer.from(bytes).toString("utf8");
  try {
    json = JSON.parse(text);
  } catch {
    throw new LogVerifyError(`${url} is not JSON`);
  }
  const twice = duplicateName(text);
  if (twice !== undefined)
    throw new LogVerifyError(`${notIJson(url, twice)}, so its records are not one reading the log could vouch for`);
  const parsed = DatasetSchema.safeParse(json);
  if (!parsed.success) throw new LogVerifyError(`${url} is not a list of review records with log_index and log_nonce`);
  const { business, aggregate_rating: aggregate, reviews } = parsed.data;
  return { url, business, aggregate, records: reviews as ServedRecord[] };
}

/** `check` over `items`, `limit` at a time; the problems in the items' order. */
async function pagesChecked<T>(items: readonly T[], limit: number, check: (item: T) => Promise<string[]>) {
  const queue = new PQueue({ concurrency: limit });
  return (await Promise.all(items.map((item) => queue.add(() => check(item))))).flat();
}

/**
 * What a withdrawn review's page answers: "gone" for 404 or 410, the only answers that say it is
 * not served; otherwise why it fails. Redirects are not followed: a 3xx may lead to the text.
 */
async function withdrawnPageStatus(url: string, fetchImpl?: typeof fetch): Promise<"gone" | string> {
  try {
    const res = await fetchPolitely(url, { redirect: "manual" }, { fetch: fetchImpl, retries: RETRIES });
    await res.body?.cancel();
    if (res.status === 404 || res.status === 410) return "gone";
    if (res.status >= 200 && res.status < 300) return "still serves a page";
    const to = res.headers.get("location");
    if (res.status >= 300 && res.status < 400)
      return `answers ${res.status}, a redirect${to ? ` to ${to}` : ""}, not 404 or 410: a redirect may lead to the withdrawn text`;
    return `answers ${res.status}, not 404 or 410`;
  } catch (err) {
    return `could not be checked: ${failureCause(err)}`;
  }
}

/** The JSON of `bytes`, or undefined (the check names what is not what it should be). */
function parsedOrUndefined(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    return undefined;
  }
}

export async function main(deps: {
  argv: string[];
  now: Date;
  out: (line: string) => void;
  err: (line: string) => void;
  fetch?: typeof fetch;
}): Promise<number> {
  let args: { url?: string; key?: string; state?: string; site?: string; pages?: boolean; help?: boolean };
  try {
    ({ values: args } = parseArgs({
      args: deps.argv,
      options: {
        url: { type: "string" },
        key: { type: "string" },
        state: { type: "string" },
        site: { type: "string" },
        pages: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    deps.err(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    deps.out(USAGE);
    return 0;
  }
  if (!args.url || !args.key) {
    deps.err(USAGE);
    return 2;
  }
  for (const [name, value] of [
    ["url", args.url],
    ["site", args.site],
  ] as const) {
    const problem = value === undefined ? undefined : urlProblem(value, name === "url" && !args.site);
    if (problem) {
      deps.err(`log:verify: --${name}: ${problem}`);
      return 2;
    }
  }
  let logName: string;
  try {
    logName = parseVerifierKey(args.key).name;
  } catch (err) {
    deps.err(`log:verify: --key: ${(err as Error).message}`);
    return 2;
  }
  let previous: SeenCheckpoint | undefined;
  if (args.state) {
    const state = await readState(args.state);
    if (state && "problem" in state) {
      deps.err(`log:verify: --state: ${state.problem}`);
      return 2;
    }
    if (state && state.origin !== logName) {
      deps.err(
        `log:verify: --state: ${args.state} keeps a checkpoint of the log ${state.origin}, and --key is the key of ${logName}: give this log's state file, or a new one`,
      );
      return 2;
    }
    previous = state;
  }
  const site = args.site ? hrefOf(args.site).replace(/\/+$/, "") : (parentSite(args.url) ?? "");
  // Each review's page is the permalink derived here, never the `url` a record names.
  const permalink = (id: string) => `${site}${reviewPath(id)}`;
  try {
    const verified = await verifyLog(httpReader(args.url, { fetch: deps.fetch, retries: RETRIES }), args.key, {
      previous,
      now: deps.now,
    });
    const unwritten = args.state ? await writeState(args.state, verified.seen) : undefined;
    if (unwritten) {
      deps.err(`log:verify: --state: ${unwritten}`);
      return 2;
    }
    const dataset = await servedDataset(site, deps.fetch);
    const records = dataset.records;
    const check = checkSite(verified.entries, records);
    const summary = aggregateProblem(dataset.url, dataset.aggregate, records);
    if (summary) check.problems.push(summary);
    // The feeds and the insights, against the records just checked (a site without one has nothing to check).
    const { business } = dataset;
    const json = (check: (j: unknown, u: string) => string[]) => (b: Uint8Array, u: string) => {
      const twice = duplicateName(Buffer.from(b).toString("utf8"));
      // JSON.parse keeps the last copy: what a reader keeping the first one shows would go unchecked.
      return twice === undefined ? check(parsedOrUndefined(b), u) : [notIJson(u, twice)];
    };
    const against: [string, (bytes: Uint8Array, url: string) => string[]][] = [
      ["api/feed.json", json((j, u) => feedProblems(u, j, records, business, permalink, verified.entries))],
      [
        "feed.xml",
        (b, u) =>
          atomProblems(u, Buffer.from(b).toString("utf8"), records, business, site, permalink, verified.entries),
      ],
      ["insights.json", json((j, u) => quoteProblems(u, j, records, permalink))],
    ];
    for (const [file, problems] of against) {
      const url = `${site}/${file}`;
      const read = { fetch: deps.fetch, maxBytes: MAX_DATASET_BYTES, retries: RETRIES };
      const bytes = await fetchBytes(url, read).catch((e: Error) => e.message);
      if (typeof bytes === "string") check.problems.push(`${url} could not be read (${bytes})`);
      else if (bytes) check.problems.push(...problems(bytes, url));
    }
    // The pages that show the log's counts (the home page, the log's own page), against the log's.
    const logPage = `${args.url.replace(/\/+$/, "")}/`;
    for (const [url, problems] of [
      [`${site}/`, homeProblems],
      [logPage, logPageProblems],
    ] as const) {
      const read = { fetch: deps.fetch, maxBytes: MAX_PAGE_BYTES, retries: RETRIES };
      const html = await fetchBytes(url, read).catch((e: Error) => e.message);
      if (typeof html === "string") check.problems.push(`${url} could not be read (${html})`);
      else check.problems.push(...problems(url, Buffer.from(html ?? []).toString("utf8"), verified.entries));
    }
    const withdrawnIds = [...latestEntries(verified.entries)].filter(([, l]) => l.entry.event === "withdrawn");
    check.problems.push(
      ...(await pagesChecked(withdrawnIds, PAGE_CONCURRENCY, async ([id, l]) => {
        const status = await withdrawnPageStatus(permalink(id), deps.fetch);
        return status === "gone" ? [] : [`${id} was withdrawn (log entry ${l.index}), but ${permalink(id)} ${status}`];
      })),
    );
    for (const r of records)
      if (typeof r.url !== "string" || hrefOf(r.url) !== permalink(r.id))
        check.problems.push(
          `${r.id} is served with url ${JSON.stringify(r.url)}, not its permalink ${permalink(r.id)}`,
        );
    if (args.pages) {
      check.problems.push(
        ...(await pagesChecked(records, PAGE_CONCURRENCY, async (r) => {
          const url = permalink(r.id);
          const html = await fetchBytes(url, { fetch: deps.fetch, maxBytes: MAX_PAGE_BYTES, retries: RETRIES }).catch(
            (e: Error) => e.message,
          );
          if (html === undefined) return [`${r.id}: ${url} is not found, though /reviews.json serves the review`];
          if (typeof html === "string") return [`${r.id}: ${url} could not be read (${html})`];
          return pageProblems(Buffer.from(html).toString("utf8"), r, url);
        })),
      );
    }
    if (check.problems.length > 0) {
      for (const p of check.problems) deps.err(`log:verify: ${p}`);
      return 1;
    }
    const { size } = verified.checkpoint;
    const c = { published: 0, amended: 0, withdrawn: 0, restored: 0 };
    for (const e of verified.entries) c[e.event]++;
    const extends_ = previous
      ? `; it extends the checkpoint of size ${previous.size} seen on ${previous.seen_at.slice(0, 10)}`
      : "";
    deps.out(
      `verified ${verified.checkpoint.origin}: ${plural(size, "entry", "entries")}, root ${verified.seen.root}${extends_}`,
    );
    deps.out(
      `  entries: ${c.published} published, ${c.amended} amended, ${c.withdrawn} withdrawn, ${c.restored} restored; every tile and entry checked against the signed checkpoint`,
    );
    deps.out(
      `  ${site}/reviews.json: ${plural(check.records, "record")}, each opening the commitment of the latest log entry for its review, and the aggregate rating theirs; every review the log lists as current is served; ${plural(check.withdrawn, "withdrawn review")} not served, nor ${check.withdrawn === 1 ? "its page" : "their pages"}`,
    );
    if (args.pages)
      deps.out(
        `  ${plural(records.length, "review page")}: each shows its record's title, stars, author and text, and its JSON-LD says the same`,
      );
    return 0;
  } catch (err) {
    const known = [LogVerifyError, LogFetchError, TypeError];
    if (!known.some((k) => err instanceof k) && (err as Error).name !== "NoteKeyError") throw err;
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    deps.err(`log:verify: ${(err as Error).message}${cause ? ` (${cause})` : ""}`);
    return 1;
  }
}

if (import.meta.main) {
  process.exitCode = await main({
    argv: process.argv.slice(2),
    now: new Date(),
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
