import { rm } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commitLogDir, LogStateError } from "../../../src/io/log-dir.ts";
import { isLoopbackOrigin, priorLog } from "../../../src/io/log-state.ts";
import { treeHash } from "../../../src/log/merkle.ts";
import { generateKeyPair, parseVerifierKey, signerFromKey } from "../../../src/log/note-keys.ts";
import { appendEntries, EMPTY_LOG, signedCheckpoint } from "../../../src/log/tree.ts";
import { tempFolders } from "../../helpers/temp-folders.ts";

/**
 * Which log a build continues when LOG_DIR is empty. The published site is a fetch over a folder
 * in tlog-tiles layout (a real LOG_DIR), or a network failure.
 */

const temp = tempFolders();
const dir = async () => {
  const d = await temp.make("pr-log-state-");
  return d;
};

const PUBLIC = "https://reviews.example";
const ORIGIN = "reviews.example/log";
const KEY = generateKeyPair(ORIGIN, new Uint8Array(32).fill(5));
const verifier = parseVerifierKey(KEY.vkey);
const opts = (warnings: string[], fetch: typeof globalThis.fetch) => ({
  origin: ORIGIN,
  verifier,
  warn: (m: string) => warnings.push(m),
  fetch,
});

const offline: typeof fetch = async () => {
  throw new TypeError("fetch failed", { cause: new Error("getaddrinfo ENOTFOUND reviews.example") });
};

/** A fetch that serves the files of `folder` as the site `base`. */
const servedFrom =
  (folder: string): typeof fetch =>
  async (input) => {
    const rel = String(input).replace(/^https?:\/\/[^/]+\/log\//, "");
    const { readFile } = await import("node:fs/promises");
    const bytes = await readFile(path.join(folder, rel)).catch(() => undefined);
    return bytes ? new Response(bytes) : new Response("not found", { status: 404 });
  };

describe("the log a build continues (log-state.ts)", () => {
  it("tells loopback origins from public ones", () => {
    for (const u of ["http://localhost:4321", "http://127.0.0.1:9", "http://[::1]:80", "http://a.localhost"])
      expect(isLoopbackOrigin(u), u).toBe(true);
    for (const u of ["https://reviews.example", "http://192.168.1.5", "http://localhost.example.com"])
      expect(isLoopbackOrigin(u), u).toBe(false);
  });

  it("refuses a public origin with nothing fetchable unless LOG_NEW=1", async () => {
    const warnings: string[] = [];
    const empty = await dir();
    await expect(priorLog(empty, { BASE_URL: PUBLIC, LOG_NEW: false }, opts(warnings, offline))).rejects.toThrow(
      /holds no review log and the one published at https:\/\/reviews\.example\/log could not be fetched .*ENOTFOUND.* set LOG_NEW=1/,
    );
    const notFound = servedFrom(await dir());
    await expect(priorLog(empty, { BASE_URL: PUBLIC, LOG_NEW: false }, opts(warnings, notFound))).rejects.toThrow(
      LogStateError,
    );
    expect(await priorLog(empty, { BASE_URL: PUBLIC, LOG_NEW: true }, opts(warnings, offline))).toEqual({
      fromDir: false,
    });
  });

  it("continues the published log, verified with the key, and refuses one under another key", async () => {
    const site = await dir();
    const tree = appendEntries(EMPTY_LOG, [Buffer.from("a"), Buffer.from("b")]);
    await commitLogDir(site, tree, signedCheckpoint(tree, ORIGIN, signerFromKey(KEY.skey)), {
      note: undefined,
      size: 0,
    });
    const warnings: string[] = [];
    const got = await priorLog(await dir(), { BASE_URL: PUBLIC, LOG_NEW: false }, opts(warnings, servedFrom(site)));
    expect(got.fromDir).toBe(false);
    expect(got.log?.tree.entries.length).toBe(2);
    expect(warnings.join("\n")).toContain("continuing the log published at https://reviews.example/log (2 entries)");

    const other = generateKeyPair(ORIGIN);
    const foreign = { ...opts(warnings, servedFrom(site)), verifier: parseVerifierKey(other.vkey) };
    await expect(priorLog(await dir(), { BASE_URL: PUBLIC, LOG_NEW: true }, foreign)).rejects.toThrow(
      /does not verify with this build's key/,
    );
    // A loopback origin starts its own log instead, saying so.
    const local = { ...foreign, origin: ORIGIN };
    expect(await priorLog(await dir(), { BASE_URL: "http://localhost:4321", LOG_NEW: false }, local)).toEqual({
      fromDir: false,
    });
  });

  it("fetches no tile of a published log before its checkpoint verifies with this log's key (tlog-tiles)", async () => {
    const site = await dir();
    const tree = appendEntries(EMPTY_LOG, [Buffer.from("a"), Buffer.from("b")]);
    const other = generateKeyPair(ORIGIN, new Uint8Array(32).fill(7));
    await commitLogDir(site, tree, signedCheckpoint(tree, ORIGIN, signerFromKey(other.skey)), {
      note: undefined,
      size: 0,
    });
    const asked: string[] = [];
    const watched: typeof fetch = async (input, init) => {
      asked.push(new URL(String(input)).pathname);
      return servedFrom(site)(input, init);
    };
    await expect(priorLog(await dir(), { BASE_URL: PUBLIC, LOG_NEW: false }, opts([], watched))).rejects.toThrow(
      /does not verify with this build's key/,
    );
    const local = await priorLog(await dir(), { BASE_URL: "http://localhost:4321", LOG_NEW: false }, opts([], watched));
    expect(local).toEqual({ fromDir: false });
    expect(asked).toEqual(["/log/checkpoint", "/log/checkpoint"]);
  });

  it("never starts a new log, even with LOG_NEW=1, once the site has answered with this log's checkpoint", async () => {
    const site = await dir();
    const tree = appendEntries(EMPTY_LOG, [Buffer.from("a"), Buffer.from("b")]);
    await commitLogDir(site, tree, signedCheckpoint(tree, ORIGIN, signerFromKey(KEY.skey)), {
      note: undefined,
      size: 0,
    });
    // The checkpoint comes through; an entry bundle meets a busy CDN.
    const busyBundle: typeof fetch = async (input, init) =>
      String(input).includes("/tile/entries/") ? new Response("busy", { status: 503 }) : servedFrom(site)(input, init);
    await expect(priorLog(await dir(), { BASE_URL: PUBLIC, LOG_NEW: true }, opts([], busyBundle))).rejects.toThrow(
      /publishes a review log \(its checkpoint was read\), which could not be read whole \(GET https:\/\/reviews\.example\/log\/tile\/entries\/000\.p\/2 answered 503\)/,
    );
  });

  it("refuses a LOG_DIR behind the published log (a stale cache would fork it), and takes one that is not", async () => {
    const site = await dir();
    const signer = signerFromKey(KEY.skey);
    const small = appendEntries(EMPTY_LOG, [Buffer.from("a")]);
    const stale = await dir();
    await commitLogDir(stale, small, signedCheckpoint(small, ORIGIN, signer), { note: undefined, size: 0 });
    const big = appendEntries(small, [Buffer.from("b"), Buffer.from("c")]);
    await commitLogDir(site, big, signedCheckpoint(big, ORIGIN, signer), { note: undefined, size: 0 });
    const config = { BASE_URL: PUBLIC, LOG_NEW: false };
    await expect(priorLog(stale, config, opts([], servedFrom(site)))).rejects.toThrow(
      /holds a log of 1 entries \(root [A-Za-z0-9+/]{43}=\), but https:\/\/reviews\.example\/log\/checkpoint publishes 3 \(root [A-Za-z0-9+/]{43}=\): LOG_DIR is behind/,
    );
    expect((await priorLog(site, config, opts([], servedFrom(stale))))?.log?.tree.entries.length).toBe(3);
  });

  it("refuses a LOG_DIR that forked from the published log, at the same size or longer", async () => {
    const signer = signerFromKey(KEY.skey);
    const common = appendEntries(EMPTY_LOG, [Buffer.from("a"), Buffer.from("b")]);
    const published = appendEntries(common, [Buffer.from("c")]);
    const site = await dir();
    await commitLogDir(site, published, signedCheckpoint(published, ORIGIN, signer), { note: undefined, size: 0 });
    const config = { BASE_URL: PUBLIC, LOG_NEW: false };
    // Another build appended its own third entry to the same two (and, in the second case, went on).
    for (const added of [["x"], ["x", "y"]]) {
      const forked = appendEntries(
        common,
        added.map((e) => Buffer.from(e)),
      );
      const local = await dir();
      await commitLogDir(local, forked, signedCheckpoint(forked, ORIGIN, signer), { note: undefined, size: 0 });
      const ours = Buffer.from(treeHash(3, forked.hashes.reader())).toString("base64");
      const theirs = Buffer.from(treeHash(3, published.hashes.reader())).toString("base64");
      await expect(priorLog(local, config, opts([], servedFrom(site)))).rejects.toThrow(
        `${local} holds a log of ${2 + added.length} entries whose first 3 are not the 3 that https://reviews.example/log/checkpoint publishes (root ${ours} in LOG_DIR at size 3, ${theirs} published): LOG_DIR and the live log have forked`,
      );
    }
    // The published log's own continuation is taken.
    const ahead = appendEntries(published, [Buffer.from("d")]);
    const local = await dir();
    await commitLogDir(local, ahead, signedCheckpoint(ahead, ORIGIN, signer), { note: undefined, size: 0 });
    expect((await priorLog(local, config, opts([], servedFrom(site))))?.fromDir).toBe(true);
  });

  it("refuses a LOG_DIR it cannot check against a public origin's log, unless LOG_NEW=1; a loopback origin is not asked", async () => {
    const signer = signerFromKey(KEY.skey);
    const log = appendEntries(EMPTY_LOG, [Buffer.from("a")]);
    const local = await dir();
    await commitLogDir(local, log, signedCheckpoint(log, ORIGIN, signer), { note: undefined, size: 0 });
    const failing: typeof fetch = async () => new Response("busy", { status: 503 });
    await expect(priorLog(local, { BASE_URL: PUBLIC, LOG_NEW: false }, opts([], offline))).rejects.toThrow(
      /holds a log of 1 entries, and the log published at https:\/\/reviews\.example\/log\/checkpoint could not be checked against it \(GET .* failed: getaddrinfo ENOTFOUND reviews\.example\)\..* set LOG_NEW=1/,
    );
    await expect(priorLog(local, { BASE_URL: PUBLIC, LOG_NEW: false }, opts([], failing))).rejects.toThrow(
      /could not be checked against it \(GET .* answered 503\)/,
    );
    // Another key's checkpoint at the origin: not this log, so nothing to compare with.
    const other = generateKeyPair(ORIGIN, new Uint8Array(32).fill(6));
    const foreignSite = await dir();
    await commitLogDir(foreignSite, log, signedCheckpoint(log, ORIGIN, signerFromKey(other.skey)), {
      note: undefined,
      size: 0,
    });
    await expect(
      priorLog(local, { BASE_URL: PUBLIC, LOG_NEW: false }, opts([], servedFrom(foreignSite))),
    ).rejects.toThrow(/could not be checked against it \(it is not a checkpoint signed by this log's key/);
    expect((await priorLog(local, { BASE_URL: PUBLIC, LOG_NEW: true }, opts([], offline)))?.fromDir).toBe(true);
    expect(
      (await priorLog(local, { BASE_URL: "http://localhost:4321", LOG_NEW: false }, opts([], offline)))?.fromDir,
    ).toBe(true);
  });

  it("refuses a public LOG_DIR with tiles but no checkpoint, even with LOG_NEW=1, before asking the site", async () => {
    const headless = await dir();
    const log = appendEntries(EMPTY_LOG, [Buffer.from("a")]);
    await commitLogDir(headless, log, signedCheckpoint(log, ORIGIN, signerFromKey(KEY.skey)), {
      note: undefined,
      size: 0,
    });
    await rm(path.join(headless, "checkpoint"));
    let asked = false;
    const watched: typeof fetch = async (...args) => {
      asked = true;
      return offline(...args);
    };
    const refusal = new RegExp(
      `^${headless.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} has no checkpoint but holds tile: `,
    );
    await expect(priorLog(headless, { BASE_URL: PUBLIC, LOG_NEW: true }, opts([], watched))).rejects.toThrow(refusal);
    // A local preview's: a new log, which updateLog writes only over tiles that are its own.
    const preview = await priorLog(headless, { BASE_URL: "http://localhost:4321", LOG_NEW: false }, opts([], watched));
    expect(preview).toMatchObject({ fromDir: false, interrupted: { refusal: expect.stringMatching(refusal) } });
    expect(asked).toBe(false);
  });
});
