import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config.ts";
import { generatedKeyFile, keyFileSystem, LogKeyError, logSigningKey } from "../../../src/io/log-key.ts";
import { generateKeyPair } from "../../../src/log/note-keys.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

const temp = tempFolders();

/** What starting the log with the key kept in `data` throws (no LOG_SIGNING_KEY). */
const keptKeyRefusal = (data: string) =>
  logSigningKey({ DATA_DIR: data, LOG_SIGNING_KEY: undefined }, "localhost:4321/log", () => {}).catch(
    (e: unknown) => e,
  );

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

  for (const code of ["EPERM", "ENOTSUP", "EXDEV", "ENOSYS"]) {
    it(`keeps one key, written whole, on a volume without hard links (link fails with ${code})`, async () => {
      const noLinks: typeof keyFileSystem = {
        ...keyFileSystem,
        link: async () => {
          throw Object.assign(new Error(`${code}: hard links not supported`), { code, syscall: "link" });
        },
        // A slow volume: the key file exists, empty, for a while before its text lands.
        open: (async (...args: Parameters<typeof keyFileSystem.open>) => {
          const fh = await keyFileSystem.open(...args);
          const write = fh.writeFile.bind(fh);
          fh.writeFile = async (...w: Parameters<typeof fh.writeFile>) => {
            await setTimeout(30);
            return write(...w);
          };
          return fh;
        }) as typeof keyFileSystem.open,
      };
      for (let round = 0; round < 10; round++) {
        const data = await temp.make("pr-log-key-");
        const config = { DATA_DIR: data, LOG_SIGNING_KEY: undefined };
        const notices: string[] = [];
        const keys = await Promise.all(
          Array.from({ length: 8 }, () => logSigningKey(config, "localhost:4321/log", (m) => notices.push(m), noLinks)),
        );
        expect(new Set(keys.map((k) => k.vkey)).size).toBe(1);
        expect(notices).toHaveLength(1);
        const file = generatedKeyFile(data, "localhost:4321/log");
        expect(await readdir(path.dirname(file))).toEqual([path.basename(file)]);
        const again = await logSigningKey(config, "localhost:4321/log", () => {}, noLinks);
        expect(again.vkey).toBe(keys[0]?.vkey);
      }
    });
  }

  it("never overwrites a kept key when it cannot link, and says plainly when it cannot write one", async () => {
    const data = await temp.make("pr-log-key-");
    const config = { DATA_DIR: data, LOG_SIGNING_KEY: undefined };
    const first = await logSigningKey(config, "localhost:4321/log", () => {});
    const eperm = async () => {
      throw Object.assign(new Error("EPERM: operation not permitted"), { code: "EPERM", syscall: "link" });
    };
    const again = await logSigningKey(config, "localhost:4321/log", () => {}, { ...keyFileSystem, link: eperm });
    expect(again.vkey).toBe(first.vkey);

    const readOnly = await temp.make("pr-log-key-");
    const erofs = async () => {
      throw Object.assign(new Error("EROFS: read-only file system"), { code: "EROFS", syscall: "open" });
    };
    const err = await logSigningKey(
      { DATA_DIR: readOnly, LOG_SIGNING_KEY: undefined },
      "localhost:4321/log",
      () => {},
      {
        ...keyFileSystem,
        link: eperm,
        open: erofs,
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LogKeyError);
    const file = generatedKeyFile(readOnly, "localhost:4321/log");
    expect((err as Error).message).toBe(
      `the review log's key could not be written to ${file} (EROFS: read-only file system): set LOG_SIGNING_KEY, or give DATA_DIR a folder this build can write`,
    );
  });

  it("removes the draft key a killed build left unlinked, and keeps one key from then on", async () => {
    const data = await temp.make("pr-log-key-");
    const keys = path.dirname(generatedKeyFile(data, "localhost:4321/log"));
    // A build killed between writing its draft and linking it: the link never returns.
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { keyFileSystem, logSigningKey } from ${JSON.stringify(pathToFileURL(path.resolve("src/io/log-key.ts")).href)};
         const link = () => { process.stdout.write("drafted\\n"); return new Promise(() => {}); };
         await logSigningKey({ DATA_DIR: ${JSON.stringify(data)} }, "localhost:4321/log", () => {}, { ...keyFileSystem, link });`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    await Promise.race([new Promise((resolve) => child.stdout.on("data", resolve)), exited]);
    child.kill("SIGKILL");
    await exited;
    const [draft] = await readdir(keys);
    expect(draft).toMatch(/^localhost_4321_log\.key\.\d+\./);

    const config = { DATA_DIR: data, LOG_SIGNING_KEY: undefined };
    const first = await logSigningKey(config, "localhost:4321/log", () => {});
    expect(await readdir(keys)).toEqual(["localhost_4321_log.key"]);
    const again = await logSigningKey(config, "localhost:4321/log", () => {});
    expect(again.vkey).toBe(first.vkey);
  });

  it("says an empty key file, left by a start killed on a volume without hard links, holds no log's key and can go", async () => {
    const data = await temp.make("pr-log-key-");
    const file = generatedKeyFile(data, "localhost:4321/log");
    // No hard links: the key file is created, then written; the start is killed between the two.
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { keyFileSystem, logSigningKey } from ${JSON.stringify(pathToFileURL(path.resolve("src/io/log-key.ts")).href)};
         const link = async () => { throw Object.assign(new Error("EPERM"), { code: "EPERM" }); };
         const open = async (...args) => {
           const fh = await keyFileSystem.open(...args);
           fh.writeFile = () => { process.stdout.write("created\\n"); return new Promise(() => {}); };
           return fh;
         };
         await logSigningKey({ DATA_DIR: ${JSON.stringify(data)} }, "localhost:4321/log", () => {}, { ...keyFileSystem, link, open });`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    await Promise.race([new Promise((resolve) => child.stdout.on("data", resolve)), exited]);
    child.kill("SIGKILL");
    await exited;
    expect(await readFile(file, "utf8")).toBe("");

    const err = await keptKeyRefusal(data);
    expect(err).toBeInstanceOf(LogKeyError);
    expect((err as Error).message).toBe(
      `${file} is empty: a start was killed after creating it and before writing the review log's generated key into it (on a volume without hard links a key file is made first, then written), so no log was signed with it. Remove the file and start again, or set LOG_SIGNING_KEY`,
    );
  });

  it("refuses a kept key file that holds no key as a LogKeyError naming the file, not echoing it", async () => {
    const data = await temp.make("pr-log-key-");
    const file = generatedKeyFile(data, "localhost:4321/log");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, "PRIVATE+KEY+localhost:4321/log+0000+c2VjcmV0\n");
    const err = await keptKeyRefusal(data);
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
