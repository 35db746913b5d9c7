import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteHubDb } from "../../../sidecar/hub/sqlite-db.ts";
import { SqliteHubStore } from "../../../sidecar/hub/sqlite-store.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "pr-hub-mode-"));
  dirs.push(d);
  return d;
};
const mode = (f: string) => statSync(f).mode & 0o777;

describe("hub.sqlite holds subscribers' secrets", () => {
  it("is created readable and writable by its owner only, with its WAL files", async () => {
    const dataDir = tempDir();
    const store = SqliteHubStore.open(path.join(dataDir, "data"));
    await store.upsert(
      {
        topic: "https://reviews.example.org/feed.xml",
        callback: "https://sub.example.net/cb",
        callbackHost: "sub.example.net",
        secret: "a-secret",
        leaseSeconds: 3600,
        expiresAt: Date.now() + 3_600_000,
        deliveredHash: null,
      },
      Date.now(),
    );
    const file = path.join(dataDir, "data", "hub.sqlite");
    expect(mode(file)).toBe(0o600);
    expect(mode(`${file}-wal`)).toBe(0o600);
    expect(mode(path.join(dataDir, "data"))).toBe(0o700);
    await store.close();
  });

  it("narrows a database an earlier version left world-readable", () => {
    const file = path.join(tempDir(), "hub.sqlite");
    writeFileSync(file, "");
    chmodSync(file, 0o644);
    new SqliteHubDb(file).close();
    expect(mode(file)).toBe(0o600);
  });
});

describe("hub.sqlite made by an earlier version", () => {
  it("keeps its pending requests: given_topic reads as null, read-only or once the column is added", async () => {
    const file = path.join(tempDir(), "hub.sqlite");
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE verifications (id INTEGER PRIMARY KEY, mode TEXT NOT NULL, topic TEXT NOT NULL,
      callback TEXT NOT NULL, callback_host TEXT NOT NULL, secret TEXT, lease_seconds INTEGER,
      requested_at INTEGER NOT NULL, UNIQUE (topic, callback))`);
    old.exec(`INSERT INTO verifications (mode, topic, callback, callback_host, requested_at)
      VALUES ('subscribe', 'https://reviews.example.org/feed.xml', 'https://sub.example.net/cb', 'sub.example.net', 1)`);
    old.close();
    const pending = { topic: "https://reviews.example.org/feed.xml", givenTopic: null };
    const readOnly = new SqliteHubDb(file, { readOnly: true });
    expect(readOnly.verifications()).toMatchObject([pending]);
    readOnly.close();
    const store = new SqliteHubDb(file);
    expect(store.verifications()).toMatchObject([pending]);
    const given = "HTTPS://reviews.example.org/./feed.xml";
    store.addVerification({
      ...pending,
      mode: "subscribe",
      givenTopic: given,
      callback: "https://sub.example.net/2",
      callbackHost: "sub.example.net",
      secret: null,
      leaseSeconds: null,
      requestedAt: 2,
    });
    expect(store.verifications().map((v) => v.givenTopic)).toEqual([null, given]);
    store.close();
  });

  it("keeps its subscriptions: given_callback reads as null, read-only or once the column is added", () => {
    const file = path.join(tempDir(), "hub.sqlite");
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE subscriptions (id INTEGER PRIMARY KEY, topic TEXT NOT NULL, callback TEXT NOT NULL,
      callback_host TEXT NOT NULL, secret TEXT, lease_seconds INTEGER NOT NULL, expires_at INTEGER NOT NULL,
      state TEXT NOT NULL, failures INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER, delivered_hash TEXT,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (topic, callback))`);
    const callback = "https://sub.example.net/cb?a=%7e";
    old.exec(`INSERT INTO subscriptions (topic, callback, callback_host, lease_seconds, expires_at, state, created_at,
      updated_at) VALUES ('https://reviews.example.org/feed.xml', '${callback}', 'sub.example.net', 60, 9, 'active', 1, 1)`);
    old.close();
    const readOnly = new SqliteHubDb(file, { readOnly: true });
    expect(readOnly.subscriptions()).toMatchObject([{ callback, givenCallback: null }]);
    readOnly.close();
    const store = new SqliteHubDb(file);
    const row = { topic: "https://reviews.example.org/feed.xml", callbackHost: "sub.example.net", secret: null };
    store.upsert(
      {
        ...row,
        callback: "https://sub.example.net/cb?a=~",
        givenCallback: callback,
        leaseSeconds: 60,
        expiresAt: 9,
        deliveredHash: null,
      },
      2,
    );
    expect(store.subscriptions().map((s) => [s.callback, s.givenCallback])).toEqual([
      [callback, null],
      ["https://sub.example.net/cb?a=~", callback],
    ]);
    store.close();
  });
});
