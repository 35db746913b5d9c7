import type { Config } from "../config.ts";
import { type Checkpoint, parseCheckpoint } from "../log/checkpoint.ts";
import { equalHash, type Hash, treeHash } from "../log/merkle.ts";
import { openNote } from "../log/note.ts";
import type { Verifier } from "../log/note-keys.ts";
import { type LogTree, rootOf } from "../log/tree.ts";
import { fetchBytes, LogFetchError } from "./log-http.ts";

/**
 * The checkpoint the site publishes, and how a log a build holds stands to it: a build appends
 * only to a log the published one leads to, and must not go live with one that forked from it.
 */

export type Published =
  | { checkpoint: Checkpoint; url: string }
  | { unchecked: string; url: string }
  | { none: true; url: string };

/**
 * `BASE_URL/log/checkpoint`, opened with this log's key: `none` on 404 (nothing published),
 * `unchecked` with the reason when it cannot be fetched, or is not this log's checkpoint.
 */
export async function publishedCheckpoint(
  config: Pick<Config, "BASE_URL">,
  opts: { origin: string; verifier: Verifier; fetch?: typeof fetch },
): Promise<Published> {
  const url = `${config.BASE_URL}/log/checkpoint`;
  let note: Uint8Array | undefined;
  try {
    note = await fetchBytes(url, { fetch: opts.fetch, timeoutMs: 10_000, maxBytes: 64 * 1024 });
  } catch (err) {
    if (!(err instanceof LogFetchError)) throw err;
    return { unchecked: err.message, url };
  }
  if (!note) return { none: true, url };
  let checkpoint: Checkpoint;
  try {
    checkpoint = parseCheckpoint(openNote(note, [opts.verifier]).text);
  } catch (err) {
    return { unchecked: `it is not a checkpoint signed by this log's key: ${(err as Error).message}`, url };
  }
  if (checkpoint.origin !== opts.origin) return { unchecked: `it is the log of ${checkpoint.origin}`, url };
  return { checkpoint, url };
}

/**
 * How `tree`, whose checkpoint has root `root`, stands to `published`: undefined when it is the
 * published log or extends it; `behind` when it is smaller; otherwise `forked`, with its own root
 * at the published size.
 */
export function divergence(
  tree: LogTree,
  root: Hash,
  published: Checkpoint,
): { behind: true } | { forked: Hash } | undefined {
  const size = tree.entries.length;
  if (published.size > size) return { behind: true };
  const at = published.size === size ? root : treeHash(published.size, tree.hashes.reader());
  return equalHash(at, published.root) ? undefined : { forked: at };
}

/** A hash as checkpoints write it. */
export const base64 = (h: Uint8Array) => Buffer.from(h).toString("base64");

/**
 * Once a build's pages are written: whether the site still publishes a log that the build's
 * `tree` extends. A build deployed meanwhile from the same published checkpoint (another CI run,
 * another machine) has its own next checkpoint live, which this one does not extend: deploying it
 * would fork the log, so the line returned ends the build. A site that cannot be read now was read
 * when the build started (log-state.ts): `warn` hears why (a loopback origin's caller passes none).
 */
export async function overtakenProblem(
  log: { tree: LogTree; dir: string; origin: string; verifier: Verifier },
  config: Pick<Config, "BASE_URL">,
  opts: { warn?: (message: string) => void; fetch?: typeof fetch },
): Promise<string | undefined> {
  const published = await publishedCheckpoint(config, { ...log, fetch: opts.fetch });
  if ("none" in published) return undefined;
  if ("unchecked" in published) {
    opts.warn?.(
      `review log: ${published.url} could not be read again at the end of the build (${published.unchecked}); if another build was deployed while this one ran, deploying this one forks the log (docs/log.md#state)`,
    );
    return undefined;
  }
  const { checkpoint, url } = published;
  const root = rootOf(log.tree);
  const apart = divergence(log.tree, root, checkpoint);
  if (!apart) return undefined;
  const size = log.tree.entries.length;
  const ours =
    "forked" in apart && checkpoint.size < size ? `, root ${base64(apart.forked)} at size ${checkpoint.size}` : "";
  return `review log: ${url} now publishes a log of ${checkpoint.size} entries (root ${base64(checkpoint.root)}), which this build's log of ${size} entries (root ${base64(root)}${ours}) does not extend: another build was deployed while this one ran, from the same published checkpoint. Do not deploy this build: it would fork the log. Deploys must run one at a time (docs/log.md#state); ${log.dir} holds this build's checkpoint, which the live log does not lead to: empty it and build again`;
}
