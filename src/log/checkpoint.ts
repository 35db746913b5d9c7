import { HASH_SIZE, type Hash } from "./merkle.ts";
import { decodeBase64 } from "./note-keys.ts";

/**
 * The checkpoint body of c2sp.org/tlog-checkpoint: the origin line, the tree size in decimal and
 * the base64 root hash, each ending in a newline; any further lines are extensions (this log
 * writes none, so a checkpoint depends on the tree only). Signing is note.ts.
 */

export interface Checkpoint {
  origin: string;
  size: number;
  root: Hash;
  /** Extension lines, without their newline. */
  extensions?: string[];
}

export function formatCheckpoint(c: Checkpoint): string {
  const ext = (c.extensions ?? []).map((l) => `${l}\n`).join("");
  return `${c.origin}\n${c.size}\n${Buffer.from(c.root).toString("base64")}\n${ext}`;
}

export class CheckpointError extends Error {
  override name = "CheckpointError";
}

/** Parses a checkpoint's text (the note text, without its signatures). */
export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith("\n")) throw new CheckpointError("a checkpoint ends with a newline");
  const [origin = "", size = "", root = "", ...extensions] = text.slice(0, -1).split("\n");
  if (origin === "") throw new CheckpointError("the checkpoint has no origin line");
  if (!/^(0|[1-9]\d*)$/.test(size) || !Number.isSafeInteger(Number(size))) {
    throw new CheckpointError(`the checkpoint's tree size is not a decimal number: ${JSON.stringify(size)}`);
  }
  const hash = decodeBase64(root);
  if (!hash || hash.length !== HASH_SIZE)
    throw new CheckpointError(`the checkpoint's root hash is not 32 bytes of base64: ${JSON.stringify(root)}`);
  if (extensions.some((l) => l === "")) throw new CheckpointError("a checkpoint has no empty lines");
  return { origin, size: Number(size), root: hash, extensions };
}

/**
 * The origin of a log served at `<baseUrl>/log`: its URL prefix without the scheme and trailing
 * slash (`http://localhost:4321` → `localhost:4321/log`), as tlog-tiles recommends.
 */
export function logOrigin(baseUrl: string): string {
  return `${baseUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/\/+$/, "")}/log`;
}
