import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config.ts";
import { generatedKeyFile, LogKeyError, logSigningKey } from "../../../src/io/log-key.ts";
import { generateKeyPair } from "../../../src/log/note-keys.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const temp = tempFolders();

describe("the review log's key (log-key.ts)", () => {
  it("generates a key into DATA_DIR once, says so once, and keeps using it", async () => {
    const data = await temp.make("pr-log-key-");
    const notices: string[] = [];
    const first = await logSigningKey({ DATA_DIR: data, LOG_SIGNING_KEY: undefined }, "localhost:4321/log", (m) =>
      notices.push(m),
    );
    const again = await logSigningKey({ DATA_DIR: data, LOG_SIGNING_KEY: undefined }, "localhost:4321/log", (m) =>
      notices.push(m),
    );
    expect(again.vkey).toBe(first.vkey);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("a public deployment must set LOG_SIGNING_KEY");
    expect(notices[0]).toContain(first.vkey);
    const file = generatedKeyFile(data, "localhost:4321/log");
    expect(await readFile(file, "utf8")).toMatch(/^PRIVATE\+KEY\+localhost:4321\/log\+[0-9a-f]{8}\+/);
  });

  it("gives builds that start at once the one key, never a half-written file", async () => {
    for (let round = 0; round < 20; round++) {
      const data = await temp.make("pr-log-key-");
      const config = { DATA_DIR: data, LOG_SIGNING_KEY: undefined };
      const keys = await Promise.all(
        Array.from({ length: 16 }, () => logSigningKey(config, "localhost:4321/log", () => {})),
      );
      expect(new Set(keys.map((k) => k.vkey)).size).toBe(1);
      const file = generatedKeyFile(data, "localhost:4321/log");
      expect(await readdir(path.dirname(file))).toEqual([path.basename(file)]);
    }
  });

  it("refuses a kept key file that holds no key as a LogKeyError naming the file, not echoing it", async () => {
    const data = await temp.make("pr-log-key-");
    const file = generatedKeyFile(data, "localhost:4321/log");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, "PRIVATE+KEY+localhost:4321/log+0000+c2VjcmV0\n");
    const err = await logSigningKey(
      { DATA_DIR: data, LOG_SIGNING_KEY: undefined },
      "localhost:4321/log",
      () => {},
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogKeyError);
    expect((err as Error).message).toContain(`${file} does not hold a usable key (not a signer key of the form`);
    expect((err as Error).message).not.toContain("c2VjcmV0");
  });

  it("takes LOG_SIGNING_KEY, and refuses one named for another log", async () => {
    const { skey, vkey } = generateKeyPair("reviews.example/log");
    const key = await logSigningKey(
      { DATA_DIR: "/nonexistent", LOG_SIGNING_KEY: skey },
      "reviews.example/log",
      () => {},
    );
    expect(key.vkey).toBe(vkey);
    await expect(
      logSigningKey({ DATA_DIR: "/x", LOG_SIGNING_KEY: skey }, "other.example/log", () => {}),
    ).rejects.toThrow(LogKeyError);
  });

  it("a malformed LOG_SIGNING_KEY stops the start with a message that does not echo the secret", () => {
    const secret = "PRIVATE+KEY+x+00000000+c2VjcmV0";
    expect(() => loadConfig({ LOG_SIGNING_KEY: secret })).toThrow(
      /LOG_SIGNING_KEY must be a signed-note Ed25519 private key/,
    );
    try {
      loadConfig({ LOG_SIGNING_KEY: secret });
    } catch (err) {
      expect((err as Error).message).not.toContain("c2VjcmV0");
    }
  });
});
