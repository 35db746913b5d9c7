import { hash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Mentions, MentionsCache, MentionsMemo } from "../content/dataset.ts";
import type { BusinessFile, ReviewFile } from "../content/schema.ts";
import type { CheckedReviews } from "../content/validate.ts";
import { parseContentYaml } from "../content/yaml.ts";
import { compact, PackIndex, PackWriter, sweepTemporary } from "./pack-file.ts";

/**
 * The build's cache of parsed review files. js-yaml was the largest per-review cost of a warm
 * rebuild; what `parseContentYaml` returns for a file is a pure function of its text (with the
 * core schema: strings, numbers, booleans, null, lists and mappings, no dates) and of the parser,
 * so the result is kept between builds as JSON under a hash of both and read back with
 * `JSON.parse`. Only results JSON gives back exactly are stored: a file that does not parse, or
 * holds a number JSON cannot write (`.inf`, `.nan`, -0) or a `__proto__` key, is parsed every
 * time.
 *
 * A file that also passed every check is kept a second time, as what the check made of it, under
 * the checker's sources and the context the check read (`checked`): the next build takes it as it
 * is, without the schema and the rules (a tenth of a second at 10,000 reviews). A file with any
 * problem is checked every time, so its messages are unchanged. The catalogue names a review
 * mentions (`reviewFields`) are kept too, under the catalogue and what the review says (`mentions`):
 * matching every name against every text was another tenth of a second.
 */

const require = createRequire(import.meta.url);

/** The parser: js-yaml's version and our wrapper's sources (read from the project root; the build bundles it). */
function parserVersion(root: string): string | undefined {
  try {
    // The mistakes the parse refuses are part of what it returns, so their scan counts too.
    const yaml = ["yaml.ts", "yaml-mistakes.ts", "yaml-value-mistakes.ts", "yaml-flow-mistakes.ts", "characters.ts"]
      .map((f) => readFileSync(path.join(root, "src/content", f), "utf8"))
      .join("\0");
    const version = (require("js-yaml/package.json") as { version: string }).version;
    return hash("sha256", `js-yaml ${version}\0${yaml}`, "hex");
  } catch {
    return undefined;
  }
}

/**
 * The whole check of a review file: every source of src/content (the parser, the schema, the rules
 * and their messages) and the versions of zod and js-yaml.
 */
function checkerVersion(root: string, parser: string): string | undefined {
  try {
    const dir = path.join(root, "src/content");
    const sources = readdirSync(dir)
      .filter((n) => n.endsWith(".ts"))
      .sort()
      .map((n) => `${n}\0${readFileSync(path.join(dir, n), "utf8")}`)
      .join("\0");
    const zod = (require("zod/package.json") as { version: string }).version;
    return hash("sha256", `${parser}\0zod ${zod}\0${sources}`, "hex");
  } catch {
    return undefined;
  }
}

/** Whether `JSON.parse(JSON.stringify(v))` is exactly `v`. */
export function jsonExact(v: unknown): boolean {
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0);
  if (Array.isArray(v)) return v.every(jsonExact);
  if (typeof v !== "object" || Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const [k, x] of Object.entries(v)) if (k === "__proto__" || !jsonExact(x)) return false;
  return true;
}

const isIds = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");
const isMentions = (v: unknown): v is Mentions =>
  typeof v === "object" &&
  v !== null &&
  isIds((v as Mentions).technicians) &&
  isIds((v as Mentions).services) &&
  isIds((v as Mentions).service_areas);

export interface YamlCache {
  parse: typeof parseContentYaml;
  /** Review files that passed every check (see `ValidateOptions.checked`); absent without a known checker. */
  checked?: (context: string) => CheckedReviews;
  /** Mentions resolved under `business`'s catalogue (see `reviewFields`); absent without a known checker. */
  mentions?: MentionsCache;
  /** Stores what was parsed and prunes the cache to the files of this build. */
  finish(): void;
  /** Instead of `finish` when reading failed: drops what would have been stored. */
  abort(): void;
}

/** A cached `parseContentYaml` over the packs in `dir`; without a known parser, the plain one. */
export function yamlCache(dir: string, root = process.cwd()): YamlCache {
  const version = parserVersion(root);
  if (version === undefined) return { parse: parseContentYaml, finish() {}, abort() {} };
  const checker = checkerVersion(root, version);
  sweepTemporary(dir);
  const index = new PackIndex(dir);
  const used = new Set<string>();
  let writer: PackWriter | undefined;
  // A damaged entry is stored again, and only a compaction makes the new line the one read.
  let damaged = false;
  const store = (key: string, value: unknown, json = JSON.stringify(value)) => {
    if (used.has(key)) return;
    used.add(key);
    writer ??= new PackWriter(dir);
    writer.add(key, json);
  };
  // What an earlier build kept under `key`, if it reads back (damaged: undefined) and is `valid`;
  // this build then keeps it too.
  const kept = (key: string, valid: (value: unknown) => boolean = () => true): unknown => {
    const hit = index.get(key);
    if (hit === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(hit);
    } catch {
      damaged = true;
      return undefined;
    }
    if (!valid(value)) {
      damaged = true;
      return undefined;
    }
    used.add(key);
    return value;
  };
  // A missed file's key is asked for three times in a row (checked, parsed, stored): hashed once.
  let last: { text: string; key: string } | undefined;
  const parsedKey = (text: string) => {
    if (last?.text !== text) last = { text, key: hash("sha256", `${version}\0${text}`, "hex") };
    return last.key;
  };
  // Named after the parsed file's key, which a hit keeps too: the next build under another context
  // (a new day, an edited business.yaml) still finds every file parsed.
  const checkedUnder = (context: string): CheckedReviews => {
    const under = hash("sha256", `${checker}\0${context}`, "hex");
    const checkedKey = (file: string, parsed: string) => hash("sha256", `${under}\0${file}\0${parsed}`, "hex");
    return {
      get(file, text) {
        const parsed = parsedKey(text);
        const review = kept(checkedKey(file, parsed)) as ReviewFile | undefined;
        if (review !== undefined && index.get(parsed) !== undefined) used.add(parsed);
        return review;
      },
      put(file, text, review) {
        if (jsonExact(review)) store(checkedKey(file, parsedKey(text)), review);
      },
    };
  };
  // A review's mentions, under the checker (src/content holds the matcher), the catalogue, and the
  // review's explicit ids and scanned text; a miss is asked for and then stored: hashed once.
  const mentionsUnder = (business: BusinessFile): MentionsMemo => {
    const catalogue = JSON.stringify([business.technicians, business.services, business.service_areas]);
    const under = hash("sha256", `${checker}\0mentions\0${catalogue}`, "hex");
    let asked: { review: ReviewFile; scanned: string; key: string } | undefined;
    const keyOf = (review: ReviewFile, scanned: string) => {
      if (asked?.review !== review || asked.scanned !== scanned) {
        const explicit = JSON.stringify([review.technicians, review.services, review.service_areas]);
        asked = { review, scanned, key: hash("sha256", `${under}\0${explicit}\0${scanned}`, "hex") };
      }
      return asked.key;
    };
    return {
      get(review, scanned) {
        return kept(keyOf(review, scanned), isMentions) as Mentions | undefined;
      },
      put(review, scanned, mentions) {
        store(keyOf(review, scanned), mentions);
      },
    };
  };
  return {
    checked: checker === undefined ? undefined : checkedUnder,
    mentions: checker === undefined ? undefined : mentionsUnder,
    parse(file, text, problems) {
      const key = parsedKey(text);
      const hit = kept(key);
      if (hit !== undefined) return hit;
      const before = problems.length;
      const value = parseContentYaml(file, text, problems);
      if (problems.length !== before || value === undefined || !jsonExact(value)) return value;
      // What a warm build gets: the value read back from its JSON. js-yaml's strings are slices of
      // the file's text, which would keep every file's text alive through the build (86 MiB at
      // 100,000 reviews); the JSON's are strings of their own.
      const json = JSON.stringify(value);
      store(key, value, json);
      return JSON.parse(json);
    },
    finish() {
      writer?.close();
      compact([index], used, damaged);
    },
    abort() {
      writer?.abort();
    },
  };
}
