import { createHash, createHmac, createSecretKey } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * A log entry commits to a record instead of carrying it: `commitment` is
 * base64(SHA-256(nonce || UTF-8 of the RFC 8785 canonical JSON of the logged record)). The record
 * (with its `log_nonce`) opens the commitment; the entry alone reveals nothing of the review, so
 * a withdrawn review's text leaves the site with its record.
 */

/** Bytes of a nonce (`log_nonce` is their standard base64). */
export const NONCE_BYTES = 32;

/** The nonce of the entry at `index`; deterministic for one key, unpredictable without it. */
export type NonceSource = (index: number) => Uint8Array;

/**
 * Nonces from the log's signing key: HMAC-SHA256 keyed with the Ed25519 seed over a label and the
 * entry index. Whoever holds the key can recompute every nonce from the public tiles, so a build
 * that continues a published log tells an amendment from an unchanged record.
 */
export function nonceSource(seed: Uint8Array): NonceSource {
  // A key object, made once: a raw key is checked and imported again on every call, which made the
  // nonces of a 10,000-review rebuild cost a few hundred milliseconds.
  const key = createSecretKey(createHmac("sha256", seed).update("public-reviews review-log nonce key").digest());
  return (index) => createHmac("sha256", key).update(`entry ${index}`).digest();
}

/** RFC 8785 (JCS) canonical JSON of `value`. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("a logged record must be JSON");
  return text;
}

/** The commitment of an entry to `record` under `nonce`, as the entry writes it. */
export function commitment(nonce: Uint8Array, record: unknown): string {
  return createHash("sha256").update(nonce).update(canonicalJson(record), "utf8").digest("base64");
}
