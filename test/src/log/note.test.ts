import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NoteError, openNote, signNote } from "../../../src/log/note.ts";
import {
  generateKeyPair,
  isValidKeyName,
  NoteKeyError,
  parseVerifierKey,
  signerFromKey,
  verifierKeyOf,
} from "../../../src/log/note-keys.ts";

// Go's published vectors (golang.org/x/mod/sumdb/note, note_test.go).
const PETER_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
const PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
const ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop";
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG =
  "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";
const ENOCH_SIG =
  "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n";

describe("signed notes (note.ts, note-keys.ts)", () => {
  it("signs Go's test note with Go's test key to Go's bytes", () => {
    expect(signNote(TEXT, [signerFromKey(PETER_SKEY)])).toBe(`${TEXT}\n${PETER_SIG}`);
    expect(verifierKeyOf(PETER_SKEY)).toBe(PETER_VKEY);
  });

  it("opens Go's note signed by two keys, checking the one it knows", () => {
    const opened = openNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, [parseVerifierKey(PETER_VKEY)]);
    expect(opened.text).toBe(TEXT);
    expect(opened.verifiedBy).toEqual(["PeterNeumann"]);
    expect(opened.unverified).toEqual([{ name: "EnochRoot", keyHash: 0xaf0cfe78 }]);
    const both = openNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, [
      parseVerifierKey(PETER_VKEY),
      parseVerifierKey(ENOCH_VKEY),
    ]);
    expect(both.verifiedBy).toEqual(["PeterNeumann", "EnochRoot"]);
  });

  it("rejects what Go rejects: no known signer, a changed text, malformed notes", () => {
    const peter = [parseVerifierKey(PETER_VKEY)];
    expect(() => openNote(`${TEXT}\n${ENOCH_SIG}`, peter)).toThrow(/no signature by a known key/);
    expect(() => openNote(`${TEXT.replace("answer", "question")}\n${PETER_SIG}`, peter)).toThrow(/invalid signature/);
    for (const bad of [
      TEXT,
      `${TEXT}\n`,
      `${TEXT}\n${PETER_SIG.slice(0, -1)}`,
      `\x01${TEXT}\n${PETER_SIG}`,
      `${TEXT}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
      `${TEXT}\n${PETER_SIG}Unexpected line.\n`,
    ]) {
      expect(() => openNote(bad, peter), JSON.stringify(bad)).toThrow(NoteError);
    }
    expect(() => openNote(Buffer.concat([Buffer.from([0xff]), Buffer.from(`${TEXT}\n${PETER_SIG}`)]), peter)).toThrow(
      NoteError,
    );
  });

  it("ignores signatures by unknown keys under any name signed-note allows: U+FEFF is no Unicode space", () => {
    const peter = [parseVerifierKey(PETER_VKEY)];
    // Go's isValidName (unicode.IsSpace) accepts it; a cosigner so named must not make the note malformed.
    const witness = ENOCH_SIG.replace("EnochRoot", "witness\ufeff.example");
    const opened = openNote(`${TEXT}\n${PETER_SIG}${witness}`, peter);
    expect(opened.unverified).toEqual([{ name: "witness\ufeff.example", keyHash: 0xaf0cfe78 }]);
    // Signed-note: verifiers MUST accept at least 16 signatures.
    expect(openNote(`${TEXT}\n${ENOCH_SIG.repeat(16)}${PETER_SIG}`, peter).verifiedBy).toEqual(["PeterNeumann"]);
    for (const space of ["\u0085", "\u00a0", "\u1680", "\u2007", "\u2028", "\u202f", "\u3000", "\t"])
      expect(isValidKeyName(`a${space}b`), JSON.stringify(space)).toBe(false);
  });

  it("names the key that signed and the key given, by name and key ID, when no known key signed", () => {
    const other = generateKeyPair("PeterNeumann", new Uint8Array(32).fill(4));
    const otherId = other.vkey.split("+")[1];
    expect(() => openNote(`${TEXT}\n${PETER_SIG}`, [parseVerifierKey(other.vkey)])).toThrow(
      `no signature by a known key: it is signed by PeterNeumann+c74f20a3, and the key given is PeterNeumann+${otherId}`,
    );
  });

  it("rejects every truncation and every one-byte change of Go's verifier key", () => {
    for (let i = 0; i <= PETER_VKEY.length; i++) {
      for (let j = i + 1; j <= PETER_VKEY.length; j++) {
        if (i === 0 && j === PETER_VKEY.length) continue;
        expect(() => parseVerifierKey(PETER_VKEY.slice(i, j))).toThrow(NoteKeyError);
      }
    }
    for (let i = 0; i < PETER_VKEY.length; i++) {
      const changed =
        PETER_VKEY.slice(0, i) + String.fromCharCode(PETER_VKEY.charCodeAt(i) + 1) + PETER_VKEY.slice(i + 1);
      expect(() => parseVerifierKey(changed), changed).toThrow(NoteKeyError);
    }
  });

  it("round-trips: any text signed with a generated key opens with its verifier key, and only with it", () => {
    const other = parseVerifierKey(generateKeyPair("example.com/log").vkey);
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme" }).map((s) => `${[...s].filter((c) => c >= " ").join("")}\n`),
        (text) => {
          const { skey, vkey } = generateKeyPair("example.com/log");
          const note = signNote(text, [signerFromKey(skey)]);
          expect(openNote(note, [parseVerifierKey(vkey)]).text).toBe(text);
          expect(() => openNote(note, [other])).toThrow(NoteError);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("writes keys in Go's GenerateKey form, key hash over name, newline and the 0x01-prefixed key", () => {
    const { skey, vkey } = generateKeyPair("localhost:4321/log", new Uint8Array(32).fill(7));
    expect(skey).toMatch(/^PRIVATE\+KEY\+localhost:4321\/log\+[0-9a-f]{8}\+A[A-Za-z0-9+/]{43}$/);
    expect(vkey).toBe(verifierKeyOf(skey));
    expect(() => generateKeyPair("has space")).toThrow(NoteKeyError);
  });
});
