import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../scripts/log-verify.ts";
import { generateKeyPair } from "../../src/log/note-keys.ts";

async function run(argv: string[], fetch?: typeof globalThis.fetch) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main({ argv, now: new Date(0), out: (l) => out.push(l), err: (l) => err.push(l), fetch });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

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
    } finally {
      await rm(d, { recursive: true, force: true });
    }
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
