import { type Checkpoint, parseCheckpoint } from "./checkpoint.ts";
import { decodeBundle, decodeEntry } from "./entries.ts";
import { checkTree, equalHash, proveTree, treeHash } from "./merkle.ts";
import { openNote } from "./note.ts";
import { parseVerifierKey } from "./note-keys.ts";
import { entryBundles, tileHashReader, tilePath, treeTiles } from "./tiles.ts";
import { appendEntries, EMPTY_LOG, tileBytes } from "./tree.ts";

/**
 * A monitor's check of a tiled log, as `npm run log:verify` runs it: the checkpoint's signature
 * under a pinned key, every hash tile against the hashes of the entries, the entries against the
 * checkpoint's root, and, given the checkpoint seen last time, a consistency proof (built from the
 * fetched tiles) that the new tree extends it. Reading goes through `LogReader`, so the same check
 * runs over HTTP, a folder or test data.
 */

export interface LogReader {
  /** The bytes at `path` below the log prefix (`checkpoint`, `tile/0/000`), or undefined when absent. */
  read(path: string): Promise<Uint8Array | undefined>;
}

/** What a monitor keeps between runs: the last checkpoint it verified and when. */
export interface SeenCheckpoint {
  origin: string;
  size: number;
  /** Base64 root hash. */
  root: string;
  /** When it was verified (RFC 3339). */
  seen_at: string;
}

export class LogVerifyError extends Error {
  override name = "LogVerifyError";
}

export interface VerifiedLog {
  checkpoint: Checkpoint;
  /** Every entry, parsed. */
  entries: ReturnType<typeof decodeEntry>[];
  /** The new checkpoint to keep. */
  seen: SeenCheckpoint;
}

async function must(reader: LogReader, path: string): Promise<Uint8Array> {
  const bytes = await reader.read(path);
  if (!bytes) throw new LogVerifyError(`${path} is missing, but the checkpoint says the log needs it`);
  return bytes;
}

const day = (iso: string) => iso.slice(0, 10);

export async function verifyLog(
  reader: LogReader,
  vkey: string,
  opts: { previous?: SeenCheckpoint; now: Date },
): Promise<VerifiedLog> {
  const verifier = parseVerifierKey(vkey);
  const note = await must(reader, "checkpoint");
  let checkpoint: Checkpoint;
  try {
    checkpoint = parseCheckpoint(openNote(note, [verifier]).text);
  } catch (err) {
    throw new LogVerifyError(`the checkpoint does not verify with the key ${verifier.name}: ${(err as Error).message}`);
  }
  if (checkpoint.origin !== verifier.name) {
    throw new LogVerifyError(`the checkpoint is for the log ${checkpoint.origin}, but the key is for ${verifier.name}`);
  }
  const { size } = checkpoint;

  const raw: Uint8Array[] = [];
  for (const t of entryBundles(size)) {
    const got = decodeBundle(await must(reader, tilePath(t)));
    if (got.length !== t.width) throw new LogVerifyError(`${tilePath(t)} holds ${got.length} entries, not ${t.width}`);
    raw.push(...got);
  }
  const entries = raw.map((bytes, i) => {
    try {
      return decodeEntry(bytes);
    } catch (err) {
      throw new LogVerifyError(`entry ${i} is not an entry of this log: ${(err as Error).message.slice(0, 200)}`);
    }
  });
  const tree = appendEntries(EMPTY_LOG, raw);

  const tiles = new Map<string, Uint8Array>();
  for (const t of treeTiles(size)) {
    const path = tilePath(t);
    const bytes = await must(reader, path);
    if (!Buffer.from(bytes).equals(Buffer.from(tileBytes(tree, t)))) {
      throw new LogVerifyError(`${path} does not hold the hashes of the entries it covers`);
    }
    tiles.set(`${t.level}/${t.n}`, bytes);
  }
  const read = tileHashReader((level, n) => tiles.get(`${level}/${n}`));
  if (!equalHash(treeHash(size, read), checkpoint.root)) {
    throw new LogVerifyError(`the tiles do not hash to the checkpoint's root (tree size ${size})`);
  }

  const prev = opts.previous;
  if (prev) {
    const was = `the checkpoint of size ${prev.size} seen on ${day(prev.seen_at)}`;
    if (prev.origin !== checkpoint.origin)
      throw new LogVerifyError(`the state file is for the log ${prev.origin}, not ${checkpoint.origin}`);
    if (size < prev.size)
      throw new LogVerifyError(`the log has ${size} entries: not an extension of ${was}, which had more`);
    const oldRoot = Buffer.from(prev.root, "base64");
    const consistent =
      size === prev.size
        ? equalHash(oldRoot, checkpoint.root)
        : prev.size === 0 || checkTree(proveTree(size, prev.size, read), size, checkpoint.root, prev.size, oldRoot);
    if (!consistent)
      throw new LogVerifyError(`the log of size ${size} is not an extension of ${was}: its history was rewritten`);
  }
  const seen = {
    origin: checkpoint.origin,
    size,
    root: Buffer.from(checkpoint.root).toString("base64"),
    seen_at: opts.now.toISOString(),
  };
  return { checkpoint, entries, seen };
}
