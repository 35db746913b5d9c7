import { randomBytes, randomUUID } from "node:crypto";
import { readFile, rename } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Config } from "../../src/config.ts";
import { type KeptFileSystem, keptFileSystem, placeOnce, removeLeftDrafts } from "../../src/io/kept-file.ts";
import type { Logger } from "../logger.ts";

/**
 * The MCP session secret when `MCP_SESSION_SECRET` is unset: one kept in `DATA_DIR`, made on
 * first start. A secret drawn per process ended every 2025-era session at each restart, and the
 * official SDK clients do not re-initialize after the 404 that follows.
 */

/** Where the generated secret is kept, readable by its owner only. */
export function sessionSecretFile(dataDir: string): string {
  return path.join(dataDir, "mcp-session-secret");
}

/** Shorter than this is not a secret `config.ts` would take from the environment either. */
const MIN_LENGTH = 32;

/** The kept secret ("" for an empty file), or undefined when there is no file. */
async function readKept(file: string): Promise<string | undefined> {
  return readFile(file, "utf8").then(
    (text) => text.trim(),
    (err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT") return undefined;
      throw err;
    },
  );
}

/** How long an empty secret file may be one being written in place (kept-file.ts): its one write lands within it. */
const WRITING_MS = 2_000;

/**
 * The kept secret, made (and kept) when the file is missing or holds less than a secret. Throws
 * when `DATA_DIR` cannot be read or written; the caller then draws one for this process.
 */
export async function keptSessionSecret(dataDir: string, fs: KeptFileSystem = keptFileSystem): Promise<string> {
  const file = sessionSecretFile(dataDir);
  await removeLeftDrafts(fs, file);
  for (;;) {
    const kept = await readKept(file);
    if (kept !== undefined && kept.length >= MIN_LENGTH) return kept;
    // Where hard links are not to be had the file is made, then written: empty for a moment, or
    // for good when its start was killed in between, and then no one will write it.
    if (kept === "") {
      const made = (await fs.stat(file).catch(() => undefined))?.mtimeMs;
      if (made !== undefined && Date.now() - made <= WRITING_MS) {
        await sleep(20);
        continue;
      }
    }
    const secret = randomBytes(32).toString("base64url");
    await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
    if (kept !== undefined) {
      // A file holding less than a secret is replaced, whole.
      const draft = `${file}.${process.pid}.${randomUUID()}`;
      await fs.writeFile(draft, `${secret}\n`, { mode: 0o600, flag: "wx" });
      await rename(draft, file).finally(() => fs.rm(draft, { force: true }));
      return secret;
    }
    // Of two starts at once (instances sharing DATA_DIR), the second finds the first's secret in
    // place and takes it, rather than replacing it.
    if (await placeOnce(fs, file, `${secret}\n`, (err) => err as Error)) return secret;
  }
}

/**
 * `MCP_SESSION_SECRET`, or else the one kept in `DATA_DIR`; undefined (the router then draws one
 * for this process, whose sessions end with it) when `DATA_DIR` cannot hold it, with a warning.
 */
export async function sessionSecret(
  config: Pick<Config, "MCP_SESSION_SECRET" | "DATA_DIR">,
  logger: Logger,
): Promise<string | undefined> {
  if (config.MCP_SESSION_SECRET !== undefined) return config.MCP_SESSION_SECRET;
  try {
    return await keptSessionSecret(config.DATA_DIR);
  } catch (err) {
    logger.warn(
      { err: (err as Error).message, file: sessionSecretFile(config.DATA_DIR) },
      "MCP session secret not kept: sessions end at the next restart; set MCP_SESSION_SECRET",
    );
    return undefined;
  }
}
