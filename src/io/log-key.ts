import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Config } from "../config.ts";
import { type NonceSource, nonceSource } from "../log/commitment.ts";
import { generateKeyPair, type Signer, signerFromKey, signerSeed, verifierKeyOf } from "../log/note-keys.ts";
import { type KeptFileSystem, keptFileSystem, placeOnce, removeLeftDrafts } from "./kept-file.ts";

/**
 * The review log's signing key: LOG_SIGNING_KEY, or else a key kept in DATA_DIR, made on first
 * use. A generated key is fine for trying the service; a public deployment sets its own (and keeps
 * it: every verifier pins the verifier key, and a new key starts a new log).
 */

export interface LogKey {
  signer: Signer;
  /** The verifier key, `<name>+<hash>+<base64>`, as `/log/key` serves it. */
  vkey: string;
  /** The entries' nonces, derived from the private key (commitment.ts). */
  nonce: NonceSource;
}

export class LogKeyError extends Error {
  override name = "LogKeyError";
}

/** The file operations a generated key is kept with: the system's, or a test's (a volume without hard links). */
export const keyFileSystem = keptFileSystem;
export type KeyFileSystem = KeptFileSystem;

/** Where a generated key for `origin` is kept. */
export function generatedKeyFile(dataDir: string, origin: string): string {
  return path.join(dataDir, "log-keys", `${origin.replace(/[^A-Za-z0-9.-]+/g, "_")}.key`);
}

/** The key `skey` for the log `origin`; `from` names where it came from, for the message. */
export function keyOf(skey: string, origin: string, from: string): LogKey {
  let signer: Signer;
  try {
    signer = signerFromKey(skey);
  } catch (err) {
    // A kept key file damaged on disk: say which file, never what it holds.
    throw new LogKeyError(
      `${from} does not hold a usable key (${(err as Error).message}): restore the key this log was started with`,
    );
  }
  if (signer.name !== origin) {
    throw new LogKeyError(
      `${from} is the key of the log ${signer.name}, but this build's log is ${origin} (its key name must be the log's origin, from BASE_URL)`,
    );
  }
  return { signer, vkey: verifierKeyOf(skey), nonce: nonceSource(signerSeed(skey)) };
}

/** How long a key file written in place (below) may read as unfinished: its one write lands within it. */
const WRITING_MS = 2_000;

/** The key kept in `file`, or undefined when there is none. */
async function readKept(fs: KeyFileSystem, file: string, origin: string): Promise<LogKey | undefined> {
  for (const started = Date.now(); ; await sleep(20)) {
    const text = await fs.readFile(file, "utf8").catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") return undefined;
      throw err;
    });
    if (text === undefined) return undefined;
    try {
      return keyOf(text.trim(), origin, file);
    } catch (err) {
      // Written in place, a key file exists, empty, a moment before its text (which ends in a newline).
      if (!text.endsWith("\n") && Date.now() - started <= WRITING_MS) continue;
      // Its text was never written, so never used: "restore the key" would send the reader looking for none.
      if (text.trim() === "")
        throw new LogKeyError(
          `${file} is empty: a start was killed after creating it and before writing the review log's generated key into it (on a volume without hard links a key file is made first, then written), so no log was signed with it. Remove the file and start again, or set LOG_SIGNING_KEY`,
        );
      throw err;
    }
  }
}

function cannotWrite(file: string, err: unknown): LogKeyError {
  return new LogKeyError(
    `the review log's key could not be written to ${file} (${(err as Error).message}): set LOG_SIGNING_KEY, or give DATA_DIR a folder this build can write`,
  );
}

/**
 * The key of the log named `origin`. `notice` hears, once per generated key, where it was written
 * and that a public deployment must set LOG_SIGNING_KEY.
 */
export async function logSigningKey(
  config: Pick<Config, "LOG_SIGNING_KEY" | "DATA_DIR">,
  origin: string,
  notice: (message: string) => void,
  fs: KeyFileSystem = keyFileSystem,
): Promise<LogKey> {
  if (config.LOG_SIGNING_KEY) return keyOf(config.LOG_SIGNING_KEY, origin, "LOG_SIGNING_KEY");
  const file = generatedKeyFile(config.DATA_DIR, origin);
  await removeLeftDrafts(fs, file);
  for (;;) {
    const kept = await readKept(fs, file, origin);
    if (kept) return kept;
    const { skey } = generateKeyPair(origin);
    if (!(await placeOnce(fs, file, `${skey}\n`, (err) => cannotWrite(file, err)))) continue;
    const key = keyOf(skey, origin, file);
    notice(
      `Created a signing key for the review log ${origin} in ${file}. Fine for trying it out; a public deployment must set LOG_SIGNING_KEY to its own key and keep it (docs/log.md). Verifier key: ${key.vkey}`,
    );
    return key;
  }
}
