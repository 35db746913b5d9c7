import { z } from "zod";
import { dir } from "../env-values.ts";
import { signerFromKey } from "./note-keys.ts";

/**
 * The review log's environment variables, as src/config.ts validates them (the one module that
 * reads `process.env` imports these schemas; nothing here reads it).
 */

/** LOG_SIGNING_KEY: a signed-note private key (docs/log.md). A message never echoes the secret. */
export const LogSigningKeyEnv = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === "") return undefined;
    try {
      signerFromKey(v.trim());
      return v.trim();
    } catch (err) {
      ctx.addIssue({
        code: "custom",
        message: `LOG_SIGNING_KEY must be a signed-note Ed25519 private key, PRIVATE+KEY+<name>+<hash>+<base64> (${(err as Error).message}), got ${v.length} characters`,
      });
      return z.NEVER;
    }
  });

/** LOG_DIR: the log's state; unset means `<DATA_DIR>/log/<origin>` (src/io/log-dir.ts `logDirOf`). */
export const LogDirEnv = dir("LOG_DIR", undefined);
