import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateKeyPair } from "../../src/log/note-keys.ts";
import { runLogVerify } from "../helpers/log-verify-run.ts";

const run = (argv: string[], fetch?: typeof globalThis.fetch) => runLogVerify(argv, { now: new Date(0), fetch });

describe("npm run log:verify (arguments)", () => {
  it("--help says what each option does and exits 0", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    for (const opt of ["--url", "--key", "--site", "--state", "--help"]) expect(r.out).toContain(opt);
    expect(r.out).toContain("default the parent of --url");
  });

  it("exits 2 with the usage for missing or unknown arguments", async () => {
    expect((await run([])).code).toBe(2);
    const unknown = await run(["--url", "https://x.example/log", "--key", "k", "--bogus"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("usage: npm run log:verify");
  });

  it("exits 2 with one line for a malformed key or a state file it cannot read or write", async () => {
    const key = await run(["--url", "https://x.example/log", "--key", "x.example/log+1234+AAAA "]);
    expect(key.code).toBe(2);
    expect(key.err).toMatch(/^log:verify: --key: [^\n]+$/);
    const d = await mkdtemp(path.join(os.tmpdir(), "pr-log-verify-"));
    try {
      const vkey = generateKeyPair("x.example/log").vkey;
      const offline = async () => new Response("gone", { status: 500 });
      const folder = await run(["--url", "https://x.example/log", "--key", vkey, "--state", d], offline);
      expect(folder).toMatchObject({ code: 2, err: `log:verify: --state: ${d} cannot be read (EISDIR)` });
      const nowhere = path.join(d, "no/such/folder/state.json");
      const missing = await run(["--url", "https://x.example/log", "--key", vkey, "--state", nowhere], offline);
      expect(missing.code).toBe(2);
      expect(missing.err).toBe(
        `log:verify: --state: ${nowhere} cannot be written: ${path.dirname(nowhere)} is not a folder`,
      );
      await writeFile(path.join(d, "bad.json"), "{}");
      const bad = await run(["--url", "https://x.example/log", "--key", vkey, "--state", path.join(d, "bad.json")]);
      expect(bad.err).toBe(
        `log:verify: --state: ${path.join(d, "bad.json")} is not a state file written by log:verify`,
      );
      // A damaged root compared with the log's would read as a rewritten history: exit 1, the gravest finding.
      const seen = {
        origin: "x.example/log",
        size: 3,
        root: `${"A".repeat(43)}=`,
        seen_at: "2026-11-27T00:00:00.000Z",
      };
      for (const damaged of [{ root: "AAAA" }, { root: "not base64!" }, { seen_at: "yesterday" }, { size: 1e300 }]) {
        const file = path.join(d, "damaged.json");
        await writeFile(file, JSON.stringify({ ...seen, ...damaged }));
        const r = await run(["--url", "https://x.example/log", "--key", vkey, "--state", file], offline);
        expect(r, JSON.stringify(damaged)).toMatchObject({
          code: 2,
          err: `log:verify: --state: ${file} is not a state file written by log:verify`,
        });
      }
      // Another log's state is the wrong file, not a log that rewrote its history: nothing is read.
      const other = path.join(d, "other.json");
      await writeFile(other, JSON.stringify({ ...seen, origin: "y.example/log" }));
      const r = await run(["--url", "https://x.example/log", "--key", vkey, "--state", other], offline);
      expect(r).toMatchObject({
        code: 2,
        err: `log:verify: --state: ${other} keeps a checkpoint of the log y.example/log, and --key is the key of x.example/log: give this log's state file, or a new one`,
      });
    } finally {
      await rm(d, { recursive: true, force: true });
    }
  });

  it("exits 2 with one line for a --url or --site that is no http(s) URL, reading nothing", async () => {
    const vkey = generateKeyPair("x.example/log").vkey;
    const asked: string[] = [];
    const fetch = async (url: string | URL | Request) => {
      asked.push(String(url));
      return new Response("no", { status: 500 });
    };
    const cases: [string[], string][] = [
      [["--url", "x.example/log"], `--url: "x.example/log" is not an http(s) URL`],
      [["--url", "ftp://x.example/log"], `--url: "ftp://x.example/log" is not an http(s) URL`],
      [["--url", "https://x.example/log?v=1"], `--url: "https://x.example/log?v=1" has a query or fragment`],
      [["--url", "https://x.example/log", "--site", "::"], `--site: "::" is not an http(s) URL`],
      // Empty, they read as none to URL, yet swallow every path put after them.
      [["--url", "https://x.example/log?"], `--url: "https://x.example/log?" has a query or fragment`],
      [["--url", "https://x.example/log#"], `--url: "https://x.example/log#" has a query or fragment`],
      [["--url", "https://x.example/log", "--site", "https://x.example?"], `--site: "https://x.example?" has a query`],
      // A log at a host's root has no parent to be the site: "http:/reviews.json" was read.
      [["--url", "https://x.example"], `--url: "https://x.example" is at the root of its host`],
      [["--url", "https://x.example//"], `--url: "https://x.example//" is at the root of its host`],
      // fetch refuses every request to it; the password is not echoed.
      [["--url", "https://me:secret@x.example/log"], `--url: the URL holds a user name or password`],
    ];
    for (const [args, says] of cases) {
      const r = await run([...args, "--key", vkey], fetch as typeof globalThis.fetch);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/^log:verify: [^\n]+$/);
      expect(r.err).toContain(`log:verify: ${says}`);
      expect(r.err).not.toContain("secret");
    }
    expect(asked).toEqual([]);
  });

  it("reads a log at a host's root when --site names the site", async () => {
    const vkey = generateKeyPair("log.example").vkey;
    const offline = async () => new Response("down", { status: 500 });
    const r = await run(["--url", "https://log.example", "--site", "https://x.example", "--key", vkey], offline);
    expect(r).toMatchObject({ code: 1, err: "log:verify: GET https://log.example/checkpoint answered 500" });
  });

  it("exits 1 naming the URL when the log cannot be fetched", async () => {
    const r = await run(
      ["--url", "https://x.example/log", "--key", generateKeyPair("x.example/log").vkey],
      async () => new Response("gone", { status: 500 }),
    );
    expect(r.code).toBe(1);
    expect(r.err).toBe("log:verify: GET https://x.example/log/checkpoint answered 500");
  });
});
