import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from "node:crypto";

/**
 * Ed25519 signer and verifier keys in the signed-note text forms (c2sp.org/signed-note, Go's
 * golang.org/x/mod/sumdb/note): `<name>+<hash>+<base64(0x01 || public key)>` for a verifier and
 * `PRIVATE+KEY+<name>+<hash>+<base64(0x01 || seed)>` for a signer, where the key hash is the first
 * 4 bytes of SHA-256(name || "\n" || 0x01 || public key). Only keys and signatures here; the note
 * text format is note.ts.
 */

const ALG_ED25519 = 1;

export interface Verifier {
  name: string;
  keyHash: number;
  verify(msg: Uint8Array, sig: Uint8Array): boolean;
}

export interface Signer {
  name: string;
  keyHash: number;
  sign(msg: Uint8Array): Uint8Array;
}

export class NoteKeyError extends Error {
  override name = "NoteKeyError";
}

/** Non-empty, valid UTF-8, no Unicode space and no `+` (sumdb/note isValidName). */
export function isValidKeyName(name: string): boolean {
  // Go's unicode.IsSpace (White_Space), spelled out: JavaScript's \s also holds U+FEFF, which is no space.
  return (
    name !== "" &&
    !/[\t\n\v\f\r +\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u.test(name) &&
    name.isWellFormed()
  );
}

export function keyHash(name: string, encodedKey: Uint8Array): number {
  return createHash("sha256").update(name).update("\n").update(encodedKey).digest().readUInt32BE(0);
}

/** Splits at the first `parts - 1` pluses, like Go's repeated `strings.Cut`: base64 may hold `+`. */
function cut(s: string, parts: number): string[] {
  const out: string[] = [];
  let rest = s;
  for (let i = 1; i < parts; i++) {
    const at = rest.indexOf("+");
    out.push(at < 0 ? rest : rest.slice(0, at));
    rest = at < 0 ? "" : rest.slice(at + 1);
  }
  out.push(rest);
  return out;
}

const hex8 = (h: number) => h.toString(16).padStart(8, "0");

/** Strict standard base64 (with padding), as Go's `base64.StdEncoding` accepts it. */
export function decodeBase64(s: string): Uint8Array | undefined {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) return undefined;
  const bytes = Buffer.from(s, "base64");
  return bytes.toString("base64") === s ? bytes : undefined;
}

const SPKI_ED25519 = Buffer.from("302a300506032b6570032100", "hex");
const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex");

function publicKeyObject(raw: Uint8Array): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519, raw]), format: "der", type: "spki" });
}

function privateKeyObject(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: "der", type: "pkcs8" });
}

function rawPublicKey(priv: KeyObject): Uint8Array {
  return createPublicKey(priv).export({ format: "der", type: "spki" }).subarray(SPKI_ED25519.length);
}

/** Parses a verifier key; throws `NoteKeyError` saying what is wrong. */
export function parseVerifierKey(vkey: string): Verifier {
  const [name = "", hash = "", b64 = ""] = cut(vkey, 3);
  const key = decodeBase64(b64);
  if (!isValidKeyName(name) || !/^[0-9a-f]{8}$/.test(hash) || !key || key.length === 0) {
    throw new NoteKeyError("not a verifier key of the form <name>+<8 hex digits>+<base64 key>");
  }
  if (Number.parseInt(hash, 16) !== keyHash(name, key))
    throw new NoteKeyError("the verifier key's hash does not match its name and key");
  if (key[0] !== ALG_ED25519 || key.length !== 33) throw new NoteKeyError("the verifier key is not an Ed25519 key");
  const pub = publicKeyObject(key.subarray(1));
  return {
    name,
    keyHash: Number.parseInt(hash, 16),
    verify: (msg, sig) => sig.length === 64 && verify(null, msg, pub, sig),
  };
}

/** A signer key's parts, for `signerFromKey` and for deriving the verifier key. */
function parseSignerKey(skey: string): { name: string; hash: number; priv: KeyObject; pub: Uint8Array } {
  const [p1, p2, name = "", hash = "", b64 = ""] = cut(skey, 5);
  const key = decodeBase64(b64);
  if (p1 !== "PRIVATE" || p2 !== "KEY" || !isValidKeyName(name) || !/^[0-9a-f]{8}$/.test(hash) || !key) {
    throw new NoteKeyError("not a signer key of the form PRIVATE+KEY+<name>+<8 hex digits>+<base64 key>");
  }
  if (key[0] !== ALG_ED25519 || key.length !== 33) throw new NoteKeyError("the signer key is not an Ed25519 key");
  const priv = privateKeyObject(key.subarray(1));
  const pub = Buffer.concat([Buffer.from([ALG_ED25519]), rawPublicKey(priv)]);
  if (Number.parseInt(hash, 16) !== keyHash(name, pub))
    throw new NoteKeyError("the signer key's hash does not match its name and key");
  return { name, hash: Number.parseInt(hash, 16), priv, pub };
}

export function signerFromKey(skey: string): Signer {
  const { name, hash, priv } = parseSignerKey(skey);
  return { name, keyHash: hash, sign: (msg) => sign(null, msg, priv) };
}

/** The 32-byte Ed25519 seed of a signer key: the secret the log's nonces derive from (commitment.ts). */
export function signerSeed(skey: string): Uint8Array {
  parseSignerKey(skey);
  return (decodeBase64(cut(skey, 5)[4] ?? "") as Uint8Array).subarray(1);
}

/** The verifier key that goes with a signer key. */
export function verifierKeyOf(skey: string): string {
  const { name, hash, pub } = parseSignerKey(skey);
  return `${name}+${hex8(hash)}+${Buffer.from(pub).toString("base64")}`;
}

/** A new key pair, as Go's `note.GenerateKey` writes it. `seed` (32 bytes) is for tests. */
export function generateKeyPair(name: string, seed?: Uint8Array): { skey: string; vkey: string } {
  if (!isValidKeyName(name))
    throw new NoteKeyError(`a key name must not be empty or contain spaces or +, got ${JSON.stringify(name)}`);
  const raw =
    seed ??
    generateKeyPairSync("ed25519").privateKey.export({ format: "der", type: "pkcs8" }).subarray(PKCS8_ED25519.length);
  const priv = Buffer.concat([Buffer.from([ALG_ED25519]), raw]);
  const pub = Buffer.concat([Buffer.from([ALG_ED25519]), rawPublicKey(privateKeyObject(raw))]);
  const h = hex8(keyHash(name, pub));
  return {
    skey: `PRIVATE+KEY+${name}+${h}+${priv.toString("base64")}`,
    vkey: `${name}+${h}+${pub.toString("base64")}`,
  };
}
