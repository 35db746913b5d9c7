import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout } from "node:timers/promises";
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

describe("a kept session secret file left empty", () => {
  it("is replaced by a start, not waited on for ever, once its writer is gone (a start killed between creating and writing it)", async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "pr-mcp-secret-"));
    const file = sessionSecretFile(dataDir);
    // What a start killed on a volume without hard links leaves: the file made, its text never written.
    await writeFile(file, "");
    const old = new Date(Date.now() - 60_000);
    await utimes(file, old, old);
    const secret = await Promise.race([
      keptSessionSecret(dataDir),
      setTimeout(10_000).then(() => "still waiting after 10 s"),
    ]);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await readFile(file, "utf8")).trim()).toBe(secret);
    expect(await readdir(dataDir)).toEqual(["mcp-session-secret"]);
  });
});
