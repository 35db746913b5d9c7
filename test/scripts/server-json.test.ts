import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SERVER_JSON_FILE, SERVER_SCHEMA, serverJson } from "../../scripts/server-json.ts";

const schema = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../fixtures/mcp-registry/server.schema.2025-12-11.json"), "utf8"),
);
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(schema);
const errors = (value: unknown) => (validate(value) ? [] : validate.errors);

describe("server.json for the MCP Registry", () => {
  const committed = JSON.parse(readFileSync(SERVER_JSON_FILE, "utf8"));

  it("is valid against the registry's published schema, which it names", () => {
    expect(schema.$id).toBe(SERVER_SCHEMA);
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
});
