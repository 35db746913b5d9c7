import { decodeBase64, isValidKeyName, type Signer, type Verifier } from "./note-keys.ts";

/**
 * The signed-note text format (c2sp.org/signed-note): the text, which ends in a newline, a blank
 * line, then one line per signature, `— <name> <base64(key hash || signature)>`. Keys and the
 * signatures themselves are note-keys.ts; this module only reads and writes the text, as Go's
 * sumdb/note `Sign` and `Open` do.
 */

const SIG_PREFIX = "\u2014 ";

export class NoteError extends Error {
  override name = "NoteError";
}

/** Signs `text` (which must end in "\n") with each signer, in order. */
export function signNote(text: string, signers: readonly Signer[]): string {
  if (!text.endsWith("\n")) throw new NoteError("a note's text must end with a newline");
  const msg = Buffer.from(text, "utf8");
  const lines = signers.map((s) => {
    if (!isValidKeyName(s.name)) throw new NoteError(`invalid signer name ${JSON.stringify(s.name)}`);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(s.keyHash);
    return `${SIG_PREFIX}${s.name} ${Buffer.concat([head, s.sign(msg)]).toString("base64")}\n`;
  });
  return `${text}\n${lines.join("")}`;
}

export interface OpenedNote {
  text: string;
  /** Names of the known verifiers whose signature checked. */
  verifiedBy: string[];
  /** Signature lines by keys not given to `openNote`. */
  unverified: { name: string; keyHash: number }[];
}

/** A note's text and signature lines, not yet checked against any key. */
export interface ParsedNote {
  text: string;
  signatures: { name: string; keyHash: number; signature: Uint8Array }[];
}

/**
 * Splits a signed note into its text and signature lines, checking only its form (as Go's
 * sumdb/note `Open` does before it verifies). The one parser of the format: `openNote` verifies
 * what it returns, and a reader that needs no key (the content check, the MCP checkpoint tool)
 * reads `text` from it. Throws `NoteError` when the note is malformed.
 */
export function parseNote(msg: Uint8Array | string): ParsedNote {
  const bytes = typeof msg === "string" ? Buffer.from(msg, "utf8") : Buffer.from(msg);
  const s = bytes.toString("utf8");
  // Valid UTF-8 and no control character but newline, like sumdb/note.
  if (!Buffer.from(s, "utf8").equals(bytes) || bytes.some((b) => b < 0x20 && b !== 0x0a)) {
    throw new NoteError("malformed note: not UTF-8 text without control characters");
  }
  const split = s.lastIndexOf("\n\n");
  if (split < 0) throw new NoteError("malformed note: no blank line before the signatures");
  const text = s.slice(0, split + 1);
  const sigs = s.slice(split + 2);
  if (sigs === "" || !sigs.endsWith("\n")) throw new NoteError("malformed note: no signature lines");
  const lines = sigs.slice(0, -1).split("\n");
  if (lines.length > 100) throw new NoteError("malformed note: more than 100 signatures");
  const signatures = lines.map((line) => {
    if (!line.startsWith(SIG_PREFIX))
      throw new NoteError(`malformed note: ${JSON.stringify(line)} is not a signature line`);
    const rest = line.slice(SIG_PREFIX.length);
    const space = rest.indexOf(" ");
    const name = space < 0 ? rest : rest.slice(0, space);
    const raw = space < 0 ? undefined : decodeBase64(rest.slice(space + 1));
    if (!isValidKeyName(name) || !raw || raw.length < 5)
      throw new NoteError(`malformed note: bad signature line ${JSON.stringify(line)}`);
    return { name, keyHash: Buffer.from(raw).readUInt32BE(0), signature: raw.subarray(4) };
  });
  return { text, signatures };
}

/**
 * Parses a signed note and checks its signatures against `verifiers`. Throws `NoteError` when the
 * note is malformed, when a known key's signature is bad, or when no known key signed it.
 */
export function openNote(msg: Uint8Array | string, verifiers: readonly Verifier[]): OpenedNote {
  const { text, signatures } = parseNote(msg);
  const verifiedBy: string[] = [];
  const unverified: { name: string; keyHash: number }[] = [];
  const textBytes = Buffer.from(text, "utf8");
  for (const { name, keyHash, signature } of signatures) {
    const v = verifiers.find((k) => k.name === name && k.keyHash === keyHash);
    if (!v) {
      unverified.push({ name, keyHash });
      continue;
    }
    if (!v.verify(textBytes, signature)) throw new NoteError(`invalid signature by ${name}`);
    if (!verifiedBy.includes(name)) verifiedBy.push(name);
  }
  if (verifiedBy.length === 0) {
    if (unverified.length === 0) throw new NoteError("the note has no signature");
    // By name and key ID: another key under the same name reads as the same signer otherwise.
    const ids = (keys: readonly { name: string; keyHash: number }[]) =>
      keys.map((k) => `${k.name}+${k.keyHash.toString(16).padStart(8, "0")}`).join(", ");
    throw new NoteError(
      `no signature by a known key: it is signed by ${ids(unverified)}, and the key given is ${ids(verifiers)}`,
    );
  }
  return { text, verifiedBy, unverified };
}
