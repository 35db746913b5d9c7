import { randomUUID } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.ts";
import { type NonceSource, nonceSource } from "../log/commitment.ts";
import { generateKeyPair, type Signer, signerFromKey, signerSeed, verifierKeyOf } from "../log/note-keys.ts";

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

/**
 * The key of the log named `origin`. `notice` hears, once per generated key, where it was written
 * and that a public deployment must set LOG_SIGNING_KEY.
 */
export async function logSigningKey(
  config: Pick<Config, "LOG_SIGNING_KEY" | "DATA_DIR">,
  origin: string,
  notice: (message: string) => void,
): Promise<LogKey> {
  if (config.LOG_SIGNING_KEY) return keyOf(config.LOG_SIGNING_KEY, origin, "LOG_SIGNING_KEY");
  const file = generatedKeyFile(config.DATA_DIR, origin);
  const kept = await readFile(file, "utf8").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return undefined;
    throw err;
  });
  if (kept !== undefined) return keyOf(kept.trim(), origin, file);
  const { skey } = generateKeyPair(origin);
  await mkdir(path.dirname(file), { recursive: true });
  // Written whole beside it, then linked into place: two builds starting at once keep the first key
  // linked, never two, and neither ever reads the file half written.
  const draft = `${file}.${process.pid}.${randomUUID()}`;
  await writeFile(draft, `${skey}\n`, { flag: "wx", mode: 0o600 });
  try {
    await link(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return keyOf((await readFile(file, "utf8")).trim(), origin, file);
  } finally {
    await rm(draft, { force: true });
  }
  const key = keyOf(skey, origin, file);
  notice(
    `Created a signing key for the review log ${origin} in ${file}. Fine for trying it out; a public deployment must set LOG_SIGNING_KEY to its own key and keep it (docs/log.md). Verifier key: ${key.vkey}`,
  );
  return key;
}
