import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The identity of the code that writes search and since answers: a hash of the project's `src/` and
 * `sidecar/` sources and of `package-lock.json`, read once per process. Their ETags hash it beside
 * the data, so a deploy that changes how an answer is written changes its ETag, and a cache holding
 * the old body is not told 304 until the data changes. Equal on instances running the same code.
 * The newest of those files' modification times dates the code for since's Last-Modified
 * (`codeModifiedMs`): a deploy writes the files it changes.
 */
const PROJECT = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["src", "sidecar"];

interface Code {
  identity: string;
  modifiedMs: number;
}

const memo = new Map<string, Code>();

function sources(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join(dir, f).split(path.sep).join("/"));
}

function readCode(root: string): Code {
  const known = memo.get(root);
  if (known !== undefined) return known;
  const hash = createHash("sha256");
  const lock = existsSync(path.join(root, "package-lock.json")) ? ["package-lock.json"] : [];
  const files = [...FOLDERS.flatMap((d) => sources(root, d)), ...lock].sort();
  let modifiedMs = 0;
  for (const f of files) {
    const abs = path.join(root, f);
    modifiedMs = Math.max(modifiedMs, statSync(abs).mtimeMs);
    hash.update(`${f}\0`).update(readFileSync(abs)).update("\0");
  }
  const code = { identity: hash.digest("base64url"), modifiedMs: Math.floor(modifiedMs) };
  memo.set(root, code);
  return code;
}

export const codeIdentity = (root = PROJECT): string => readCode(root).identity;

/** When the code was last written (epoch ms): the newest modification time among the hashed files. */
export const codeModifiedMs = (root = PROJECT): number => readCode(root).modifiedMs;
