import { type BigIntStats, closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { HeadersManifestSchema, MANIFEST_FILE } from "../http-headers/manifest.ts";

/**
 * The header manifest an output folder holds when a build starts, as the ETags of the files the
 * build leaves as they were. A manifest is made after every file it lists is written: by the build
 * that hashed them (build-outputs.ts), or last by a copy of a build (mirror-build.ts and npm start's
 * spare folder, sidecar/build/site-build.ts). So a file whose status last changed (its ctime, which
 * any write, rename or `touch` moves and none can set back) before the manifest file was created
 * (its birth time, which rewriting, `touch` or `chmod` leave) is still the one it lists. Strictly
 * before: a file changed in the clock tick the manifest was made in is hashed again.
 *
 * The ETag memo (etag-memo.ts) knows a file by its inode, so a copied folder's files are new to
 * it: npm start's first build into its copy of the served site hashed all 11,000 files of a
 * 10,000-review site again. Where the file system keeps no birth time, Node gives 0, and nothing is
 * taken from the manifest. Where the kernel refuses `statx` (an old seccomp profile), Node gives the
 * ctime instead: a manifest whose mode or owner changed after a file was edited by hand would then
 * vouch for the edited file.
 */
export interface FolderManifest {
  /** The ETag the manifest lists for `sitePath`, when the file's status (`ctimeNs`) changed before the manifest was made. */
  etagOf(sitePath: string, ctimeNs: bigint): string | undefined;
}

export const NO_MANIFEST: FolderManifest = { etagOf: () => undefined };

/**
 * Whether `file` may have changed since `manifest` was made: its ctime is not before the manifest's
 * birth time. Where no birth time is kept, by the modification times, which `touch -r` can set back.
 */
export function changedSince(
  file: Pick<BigIntStats, "ctimeNs" | "mtimeNs">,
  manifest: Pick<BigIntStats, "birthtimeNs" | "mtimeNs">,
): boolean {
  return manifest.birthtimeNs === 0n ? file.mtimeNs > manifest.mtimeNs : file.ctimeNs >= manifest.birthtimeNs;
}

/** The manifest in `dir` now, read whole, parsed only once a file asks for it; none when unreadable. */
export function readFolderManifest(dir: string): FolderManifest {
  let made: BigIntStats;
  let bytes: Buffer;
  try {
    const fd = openSync(path.join(dir, MANIFEST_FILE), "r");
    try {
      made = fstatSync(fd, { bigint: true });
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return NO_MANIFEST;
  }
  // A rebuild in place finds every file it did not write in the memo, and never parses this.
  let etags: Map<string, string> | undefined;
  const parse = (): Map<string, string> => {
    try {
      const { files } = HeadersManifestSchema.parse(JSON.parse(bytes.toString("utf8")));
      return new Map(Object.entries(files).map(([p, h]) => [p, h.etag]));
    } catch {
      return new Map();
    }
  };
  return {
    etagOf(sitePath, ctimeNs) {
      if (made.birthtimeNs === 0n || changedSince({ ctimeNs, mtimeNs: 0n }, made)) return undefined;
      etags ??= parse();
      return etags.get(sitePath);
    },
  };
}
