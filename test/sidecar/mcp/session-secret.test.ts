import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keptSessionSecret, sessionSecretFile } from "../../../sidecar/mcp/session-secret.ts";

/** The MCP session secret kept in DATA_DIR when MCP_SESSION_SECRET is unset. */

let dataDir: string | undefined;

afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("the kept MCP session secret", () => {
  it("is one secret however many starts make it at once, and the one the file keeps", async () => {
    // Two instances sharing DATA_DIR may start together: each must end up with the kept secret,
    // or the one whose secret was replaced ends its sessions at its next restart.
    dataDir = await mkdtemp(path.join(os.tmpdir(), "pr-mcp-secret-"));
    const dir = dataDir;
    const secrets = await Promise.all(Array.from({ length: 4 }, () => keptSessionSecret(dir)));
    const kept = (await readFile(sessionSecretFile(dir), "utf8")).trim();
    expect(kept.length).toBeGreaterThanOrEqual(32);
    expect(secrets).toEqual(secrets.map(() => kept));
    expect(await readdir(dir)).toEqual(["mcp-session-secret"]);
  });
});
