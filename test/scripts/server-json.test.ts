import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SERVER_JSON_FILE, SERVER_SCHEMA, serverJson } from "../../scripts/server-json.ts";

const schema = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../fixtures/mcp-registry/server-entry.schema.json"), "utf8"),
);
const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);
const errors = (value: unknown) => (validate(value) ? [] : validate.errors);

describe("server.json for the MCP Registry", () => {
  const committed = JSON.parse(readFileSync(SERVER_JSON_FILE, "utf8"));

  it("meets the registry's published constraints, and names its schema", () => {
    expect(schema.properties.$schema.const).toBe(SERVER_SCHEMA);
    expect(committed.$schema).toBe(SERVER_SCHEMA);
    expect(errors(committed)).toEqual([]);
  });

  it("lists the public /mcp endpoint as a streamable-http remote, as `npm run server-json` writes it", () => {
    expect(committed.remotes).toHaveLength(1);
    const [remote] = committed.remotes;
    expect(remote.type).toBe("streamable-http");
    expect(remote.url).toMatch(/^https:\/\/.+\/mcp$/);
    expect(committed).toEqual(serverJson(remote.url.replace(/\/mcp$/, "")));
  });

  it("follows BASE_URL: its host names the entry, its /mcp is the remote", () => {
    // Names, not IP addresses (which URL parsing rewrites): the last label has letters only.
    const host = fc
      .tuple(
        fc.array(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/), { minLength: 1, maxLength: 3 }),
        fc.stringMatching(/^[a-z]{2,6}$/),
      )
      .map(([labels, tld]) => [...labels, tld].join("."));
    fc.assert(
      fc.property(host, fc.constantFrom("", "/reviews"), (h, prefix) => {
        const entry = serverJson(`https://${h}${prefix}/`);
        expect(errors(entry)).toEqual([]);
        expect(entry.name).toBe(`${h.split(".").reverse().join(".")}/public-reviews`);
        expect(entry.remotes).toEqual([{ type: "streamable-http", url: `https://${h}${prefix}/mcp` }]);
      }),
      { numRuns: 100 },
    );
    // The schema really is applied: a bad entry is refused.
    expect(errors({ ...serverJson("https://reviews.example.org"), name: "no slash" })).not.toEqual([]);
  });

  const ROOT = path.resolve(import.meta.dirname, "../..");
  const run = (args: string[], env: NodeJS.ProcessEnv) =>
    promisify(execFile)(path.join(ROOT, "node_modules/.bin/node"), ["scripts/server-json.ts", ...args], {
      cwd: ROOT,
      env,
    });
  const withoutBaseUrl = () => {
    const { BASE_URL: _, ...env } = process.env;
    return env;
  };

  it("npm run server-json without BASE_URL refuses and leaves server.json as it is", async () => {
    const before = readFileSync(SERVER_JSON_FILE, "utf8");
    const mtime = statSync(SERVER_JSON_FILE).mtimeMs;
    const failed = await run([], withoutBaseUrl()).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain("BASE_URL is not set, so server.json is left as it is");
    expect(readFileSync(SERVER_JSON_FILE, "utf8")).toBe(before);
    expect(statSync(SERVER_JSON_FILE).mtimeMs).toBe(mtime);
  });

  it("--print writes the entry to stdout and no file", async () => {
    const before = readFileSync(SERVER_JSON_FILE, "utf8");
    const { stdout } = await run(["--print"], { ...withoutBaseUrl(), BASE_URL: "https://reviews.example.net" });
    expect(JSON.parse(stdout)).toEqual(serverJson("https://reviews.example.net"));
    expect(readFileSync(SERVER_JSON_FILE, "utf8")).toBe(before);
  });
});
