import { type BigIntStats, statSync } from "node:fs";

/**
 * A file's identity on disk: its inode, modification time and size. A rename keeps it, and any
 * write changes it. The build keeps a file's identity to know it is still the one it saw or wrote:
 * the output folder's files (src/integrations/out-dir.ts), the cache packs it has read
 * (src/io/pack-file.ts), and the header manifest it wrote (src/integrations/build-outputs.ts).
 */
export const identityOf = (s: BigIntStats): string => `${s.ino}:${s.mtimeNs}:${s.size}`;

/** The identity of `file`, or undefined when it cannot be read. */
export function fileIdentity(file: string): string | undefined {
  try {
    return identityOf(statSync(file, { bigint: true }));
  } catch {
    return undefined;
  }
}
