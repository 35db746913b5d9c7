import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The identity of the code that writes search and since answers: a hash of the project's `src/` and
 * `sidecar/` sources and of `package-lock.json`, read once per process. Their ETags hash it beside
 * the data, so a deploy that changes how an answer is written changes its ETag, and a cache holding
 * the old body is not told 304 until the data changes. Equal on instances running the same code.
 * The code is dated by when this process started (`codeSinceMs`): a deploy restarts it, while the
 * files' own dates may be kept or reset by whatever copied them (rsync -a, tar, an image build).
 */
const PROJECT = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["src", "sidecar"];

const memo = new Map<string, string>();

function sources(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join(dir, f).split(path.sep).join("/"));
}

export function codeIdentity(root = PROJECT): string {
  const known = memo.get(root);
  if (known !== undefined) return known;
  const hash = createHash("sha256");
  const lock = existsSync(path.join(root, "package-lock.json")) ? ["package-lock.json"] : [];
  const files = [...FOLDERS.flatMap((d) => sources(root, d)), ...lock].sort();
  for (const f of files)
    hash
      .update(`${f}\0`)
      .update(readFileSync(path.join(root, f)))
      .update("\0");
  const identity = hash.digest("base64url");
  memo.set(root, identity);
  return identity;
}

/** When the code that writes the answers began to serve (epoch ms, whole seconds): this process's start. */
export const codeSinceMs = (): number => Math.floor(performance.timeOrigin / 1000) * 1000;
