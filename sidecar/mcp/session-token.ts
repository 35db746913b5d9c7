import { createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from "node:crypto";
import { LRUCache } from "lru-cache";
import { z } from "zod";

/**
 * 2025-era MCP session ids that carry their own state: `<payload>.<signature>`, both base64url,
 * where the payload is `{v, exp, pv, n}` (format version, first expiry in epoch ms, negotiated
 * protocol version, random nonce) and the signature is HMAC-SHA256 of the payload under
 * `MCP_SESSION_SECRET`. Any instance holding the secret can validate an id without a lookup; the
 * first expiry is the `initialize` plus the idle timeout, and each use moves it on in the session
 * store (session-store.ts), so an id never changes during its session.
 */

/** Wall-clock time in epoch milliseconds: expiries cross processes, so a monotonic clock will not do. */
export interface WallClock {
  now(): number;
}

export const systemWallClock: WallClock = { now: () => Date.now() };

/** Longer ids are refused unparsed: a real one is about 120 characters. */
const MAX_ID_LENGTH = 512;

/**
 * The one spelling of an id: unpadded base64url payload, a dot, and the 43 characters of an
 * unpadded base64url HMAC-SHA256. Node's base64url decoder is lenient (it skips `=`, `!`, `%`,
 * reads `+/` as `-_`, ignores the unused low bits of the last character), so without this pattern
 * and the re-encoding check in `#check` one signature had dozens of spellings, and a session record
 * or a cache keyed on one spelling missed the others.
 */
const ID_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;

/**
 * Ids whose signature was checked, remembered with their claims: every request of a session
 * carries its id, and checking the HMAC and parsing the claims again cost more than the rest of
 * the session checks. At most this many (about 0.5 KiB each), least recently used forgotten first.
 */
const VERIFIED_MAX = 1024;

const ClaimsSchema = z.object({
  v: z.literal(1),
  exp: z.number().int().positive(),
  pv: z.string().min(1).max(32),
  n: z.string().min(1).max(64),
});

export type SessionClaims = z.infer<typeof ClaimsSchema>;

export type VerifyResult = { ok: true; claims: SessionClaims } | { ok: false; reason: "malformed" | "bad-signature" };

export interface SessionTokensOptions {
  /** HMAC key; at least 32 bytes of entropy. */
  secret: string | Uint8Array;
  /** The idle timeout, in ms: an id's first expiry is this long after its issue. */
  ttlMs: number;
  clock?: WallClock;
}

/**
 * Issues and verifies signed session ids. Holds the key, and the ids it verified lately. Whether a
 * verified id's session is still live (used lately, not ended) is the session store's to say.
 */
export class SessionTokens {
  #key: KeyObject;
  #ttlMs: number;
  #clock: WallClock;
  #verified = new LRUCache<string, SessionClaims>({ max: VERIFIED_MAX });

  constructor(opts: SessionTokensOptions) {
    // A KeyObject made once: `createHmac` with raw bytes imports the key again on every call.
    this.#key = createSecretKey(Buffer.from(opts.secret));
    this.#ttlMs = opts.ttlMs;
    this.#clock = opts.clock ?? systemWallClock;
  }

  /** A new id for a session that negotiated `protocolVersion`, first expiring the idle timeout from now. */
  issue(protocolVersion: string): { id: string; claims: SessionClaims } {
    const claims: SessionClaims = {
      v: 1,
      exp: this.#clock.now() + this.#ttlMs,
      pv: protocolVersion,
      n: randomBytes(12).toString("base64url"),
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
    return { id: `${payload}.${this.#sign(payload)}`, claims };
  }

  /**
   * Checks the spelling and the signature (so nothing unsigned is parsed further), then the
   * claims. Only the exact string `issue` returned verifies, so callers may key the session store
   * and caches on the id as given: no other spelling of it can reach them.
   */
  verify(id: string): VerifyResult {
    const known = this.#verified.get(id);
    if (known !== undefined) return { ok: true, claims: known };
    const result = this.#check(id);
    if (result.ok) this.#verified.set(id, Object.freeze(result.claims));
    return result;
  }

  #check(id: string): VerifyResult {
    if (id.length > MAX_ID_LENGTH || !ID_PATTERN.test(id)) return { ok: false, reason: "malformed" };
    const dot = id.indexOf(".");
    const payload = id.slice(0, dot);
    const signature = id.slice(dot + 1);
    const given = Buffer.from(signature, "base64url");
    // Non-zero unused bits in the last character decode to the same bytes: not the canonical spelling.
    if (given.toString("base64url") !== signature) return { ok: false, reason: "malformed" };
    const expected = Buffer.from(this.#sign(payload), "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { ok: false, reason: "bad-signature" };
    }
    let parsed: ReturnType<typeof ClaimsSchema.safeParse>;
    try {
      parsed = ClaimsSchema.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
    } catch {
      return { ok: false, reason: "malformed" };
    }
    if (!parsed.success) return { ok: false, reason: "malformed" };
    return { ok: true, claims: parsed.data };
  }

  #sign(payload: string): string {
    return createHmac("sha256", this.#key).update(payload).digest("base64url");
  }
}
