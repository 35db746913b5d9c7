import { hash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { threadId } from "node:worker_threads";
import type { Analyzer, Clause, TokenTable } from "./nlp.ts";

/**
 * The build's cache of text analysis: the clauses of a text (`Analyzer.clauses`, wink-nlp's
 * tokenising, sentence splitting, tagging and lemmatising: the most expensive step of a build) are
 * a pure function of the text and of the analyser, so they are kept on disk in Astro's cache
 * folder, one file per text, named by a hash of both. A rebuild after editing one review analyses
 * one text; everything else is read back.
 *
 * Files, not one big map: the build reads each review's clauses when it annotates it and lets them
 * go, so a 100,000-review build never holds every text's tokens at once.
 */

/** Bump when `clauses()` in nlp.ts changes what it returns. */
const CLAUSES_FORMAT = 1;

const require = createRequire(import.meta.url);
/** Part of every key: a new wink-nlp or model, or a new clause format, misses every entry. */
export const ANALYZER_VERSION = [
  `format ${CLAUSES_FORMAT}`,
  `wink-nlp ${(require("wink-nlp/package.json") as { version: string }).version}`,
  `wink-eng-lite-web-model ${(require("wink-eng-lite-web-model/package.json") as { version: string }).version}`,
].join(", ");

/** Clauses as stored: the token table once, then each clause without it, sentence indexes from 0. */
interface Stored {
  tokens: TokenTable;
  clauses: [sentence: string, sentenceIndex: number, text: string, start: number, end: number][];
}

/** SHA-256 of the analyser version, a NUL and the text. One-shot `hash`: a build keys every text twice. */
export function clauseKey(text: string): string {
  return hash("sha256", `${ANALYZER_VERSION}\0${text}`, "hex");
}

export function encodeClauses(clauses: Clause[]): string {
  const stored: Stored = {
    tokens: clauses[0]?.tokens ?? { values: [], normals: [], lemmas: [], pos: [], stop: [], words: [] },
    clauses: clauses.map((c) => [c.sentence, c.sentenceIndex, c.text, c.start, c.end]),
  };
  return JSON.stringify(stored);
}

export function decodeClauses(json: string, firstSentenceIndex: number): Clause[] {
  const { tokens, clauses } = JSON.parse(json) as Stored;
  return clauses.map(([sentence, sentenceIndex, text, start, end]) => ({
    sentence,
    sentenceIndex: firstSentenceIndex + sentenceIndex,
    text,
    tokens,
    start,
    end,
  }));
}

/** The folder of analysis files inside an Astro cache folder. */
export function clauseDir(astroCacheDir: string): string {
  return path.join(astroCacheDir, "clauses");
}

function fileOf(dir: string, key: string): string {
  return path.join(dir, key.slice(0, 2), `${key}.json`);
}

export function writeClauses(dir: string, key: string, json: string): void {
  const file = fileOf(dir, key);
  // Written whole to a temporary name and renamed, so a reader never sees half a file.
  const tmp = `${file}.${process.pid}.${threadId}.tmp`;
  try {
    writeFileSync(tmp, json);
  } catch (err) {
    // The shard folder is made on the first write that needs it, not asked for on every write.
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, json);
  }
  renameSync(tmp, file);
}

export function readClauses(dir: string, key: string): string | undefined {
  try {
    return readFileSync(fileOf(dir, key), "utf8");
  } catch {
    return undefined;
  }
}

/** Whether `dir` already holds the analysis of `text`. */
export function hasClauses(dir: string, text: string): boolean {
  return existsSync(fileOf(dir, clauseKey(text)));
}

/**
 * An analyzer whose `clauses` reads the cache first and writes what it had to compute; the other
 * methods are the wrapped analyzer's. `used()` lists the keys read or written, for `prune`.
 */
export function cachingAnalyzer(inner: Analyzer, dir: string): Analyzer & { used(): Set<string> } {
  const used = new Set<string>();
  return {
    termForms: (term) => inner.termForms(term),
    wordScore: (normal) => inner.wordScore(normal),
    clauses(text, firstSentenceIndex = 0) {
      const key = clauseKey(text);
      used.add(key);
      const hit = readClauses(dir, key);
      if (hit !== undefined) {
        try {
          return decodeClauses(hit, firstSentenceIndex);
        } catch {
          // A damaged file is recomputed and replaced below.
        }
      }
      const computed = inner.clauses(text, 0);
      writeClauses(dir, key, encodeClauses(computed));
      return firstSentenceIndex === 0
        ? computed
        : computed.map((c) => ({ ...c, sentenceIndex: c.sentenceIndex + firstSentenceIndex }));
    },
    used: () => used,
  };
}

/** Removes the analysis of texts this build no longer has, so the cache stays the size of the content. */
export function prune(dir: string, keep: Set<string>): void {
  let shards: string[];
  try {
    shards = readdirSync(dir);
  } catch {
    return;
  }
  for (const shard of shards) {
    for (const name of readdirSync(path.join(dir, shard))) {
      if (!keep.has(name.slice(0, -".json".length))) rmSync(path.join(dir, shard, name), { force: true });
    }
  }
}
