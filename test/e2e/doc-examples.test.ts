import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvSchema } from "../../src/config.ts";
import { HEAVY_TESTS } from "../../vitest.config.ts";
import { tempDistDir } from "../helpers/build-site.ts";
import { headingAnchors, markdownFiles, relativeLinks, shellBlocks } from "../helpers/markdown.ts";
import { PROJECT_CONTENT } from "../helpers/project-content.ts";
import { type StartedProcess, startProcess } from "../helpers/start-process.ts";

/**
 * Every ```sh block in README.md and docs/*.md runs against a server that `npm start` built from
 * the sample content (as committed), with BASE_URL exported the way a reader's shell would have it. A block passes
 * when it exits 0 under `bash -euo pipefail`, so an example that asserts a status or a field
 * (`test "$(curl … -w '%{http_code}')" = 304`) fails the suite the day it stops being true.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const BLOCK_TIMEOUT_MS = 30_000;
const files = markdownFiles(ROOT);
const blocks = files.flatMap((f) => shellBlocks(f, readFileSync(path.join(ROOT, f), "utf8")));

let server: StartedProcess;
let baseUrl: string;
let dist: string;
let data: string;

beforeAll(async () => {
  dist = await tempDistDir("pr-docs-dist-");
  data = await mkdtemp(path.join(os.tmpdir(), "pr-docs-data-"));
  // No BASE_URL: npm start derives it from the port it listens on, as for a reader on their machine.
  server = await startProcess({
    PORT: "0",
    CONTENT_DIR: PROJECT_CONTENT,
    DIST_DIR: dist,
    DATA_DIR: data,
    LOG_LEVEL: "warn",
  });
  baseUrl = server.publicBase;
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await rm(dist, { recursive: true, force: true });
  await rm(data, { recursive: true, force: true });
});

function run(code: string): { status: number | null; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync("bash", ["-euo", "pipefail", "-c", code], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TMPDIR: os.tmpdir(), BASE_URL: baseUrl },
      timeout: BLOCK_TIMEOUT_MS,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { status: 0, stdout, stderr: "" };
  } catch (err) {
    const e = err as { status: number | null; stdout?: string; stderr?: string };
    return { status: e.status, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

describe("documentation", () => {
  it("has shell examples to run, and jq to run them with", () => {
    expect(blocks.length).toBeGreaterThan(10);
    // Never skipped: without jq the examples cannot be checked (Debian: apt-get install -y jq).
    expect(() => execFileSync("jq", ["--version"])).not.toThrow();
  });

  it.each(blocks.map((b) => [b.where, b.code] as const))(
    "%s runs against the sample content and exits 0",
    (where, code) => {
      const result = run(code);
      expect(
        result.status,
        `${where} exited ${result.status}\n--- block\n${code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
      ).toBe(0);
    },
    BLOCK_TIMEOUT_MS + 5_000,
  );

  it("docs/configuration.md documents every environment variable the config module reads", () => {
    const firstCells = readFileSync(path.join(ROOT, "docs/configuration.md"), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("|"))
      .map((line) => line.split("|")[1] ?? "");
    const undocumented = Object.keys(EnvSchema.shape).filter(
      (name) => !firstCells.some((cell) => cell.includes(`\`${name}\``)),
    );
    expect(undocumented).toEqual([]);
  });

  it("docs/development.md's table of heavy files is vitest.config.ts's heavy list, no more and no less", () => {
    const rows = readFileSync(path.join(ROOT, "docs/development.md"), "utf8").matchAll(
      /^\| `(test\/\S+\.test\.ts)` \|/gm,
    );
    expect([...rows].map((m) => m[1]).sort()).toEqual([...HEAVY_TESTS].sort());
  });

  it.each(["README.md", "docs/development.md"])(
    "%s's layout names every folder of src/ and sidecar/, and every npm script of scripts/",
    (file) => {
      const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
      const start = lines.findIndex((l) => l.startsWith("src/ "));
      const section = (top: string) => {
        const from = lines.findIndex((l, i) => i >= start && l.startsWith(`${top}/ `));
        const to = lines.findIndex((l, i) => i > from && /^\S/.test(l));
        return lines.slice(from + 1, to).join("\n");
      };
      const unnamed = ["src", "sidecar"].flatMap((top) =>
        readdirSync(path.join(ROOT, top), { withFileTypes: true })
          .filter((d) => d.isDirectory() && !new RegExp(`(^|\\s)${d.name}/`).test(section(top)))
          .map((d) => `${top}/${d.name}/`),
      );
      const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      };
      const toolsLine = lines.find((l, i) => i > start && l.startsWith("scripts/ ")) ?? "";
      const tools = Object.entries(pkg.scripts)
        .filter(([name, run]) => / scripts\//.test(run) && !new RegExp(`[ :,]${name}(,|$)`).test(toolsLine))
        .map(([name]) => `npm run ${name}`);
      expect(start).toBeGreaterThan(-1);
      expect([...unnamed, ...tools]).toEqual([]);
    },
  );

  it.each(files)("%s links only to files and headings that exist", (file) => {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const broken = relativeLinks(text).filter((link) => {
      const target = link.file ? path.resolve(ROOT, path.dirname(file), link.file) : path.join(ROOT, file);
      if (!existsSync(target)) return true;
      if (link.anchor === undefined || !target.endsWith(".md")) return false;
      return !headingAnchors(readFileSync(target, "utf8")).has(link.anchor);
    });
    expect(broken).toEqual([]);
  });
});

/**
 * The reference docs against what the running service says about itself, so a parameter, a tool
 * argument or a version added to the code without a word in the docs fails here. Every list is
 * read from the service (its OpenAPI document, `tools/list`, its start-up output), never typed in.
 */
describe("reference docs match the running service", () => {
  const doc = (file: string) => readFileSync(path.join(ROOT, "docs", file), "utf8");
  type Parameter = { name: string; in: string; explode?: boolean; schema?: { properties?: object } };
  type Operation = { operationId: string; parameters?: Parameter[] };
  /** The names a client sends: an exploded query object's properties, other parameters by name. */
  const namesOf = (op: Operation) =>
    (op.parameters ?? []).flatMap((p) =>
      p.in === "query" && p.explode ? Object.keys(p.schema?.properties ?? {}) : [p.name],
    );
  const openapi = async () =>
    (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      info: { version: string };
      paths: Record<string, Record<string, Operation>>;
    };

  type Served = { reviews: Array<Record<string, unknown> & { aspects: object[] }> };
  const servedRecords = async () => ((await (await fetch(`${server.url}/reviews.json`)).json()) as Served).reviews;

  it("README.md's review record names every field of a served record, and of its aspects", async () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("### The review record"), readme.indexOf("\n## What is behind it"));
    const record = (await servedRecords()).find((r) => r.aspects.length > 0);
    const aspect = record?.aspects[0] ?? {};
    expect(record).toBeDefined();
    expect(Object.keys(record ?? {}).filter((k) => !section.includes(`\`${k}\``))).toEqual([]);
    const listed = /`aspects`, one `\{([^}]*)\}`/.exec(section)?.[1]?.split(/,\s*/) ?? [];
    expect(listed.sort()).toEqual(Object.keys(aspect).sort());
  });

  it("docs/api.md's example record is the one served for its id, but for the text it cuts short, the nonce and the aspects' values", async () => {
    const text = doc("api.md");
    const at = text.indexOf("## The review record");
    const shown = JSON.parse(/```json\n([\s\S]*?)```/.exec(text.slice(at))?.[1] ?? "null");
    const served = (await servedRecords()).find((r) => r.id === shown.id);
    const { text: shownText, log_nonce, aspects, url, ...rest } = shown;
    expect(served).toMatchObject({ ...rest, url: url.replace("http://localhost:4321", baseUrl) });
    expect(Object.keys(shown).sort()).toEqual(Object.keys(served ?? {}).sort());
    expect(served?.text).toContain(shownText.replace(/…$/, ""));
    expect(Buffer.from(log_nonce, "base64")).toHaveLength(32);
    const keys = (list: object[]) => list.map((a) => Object.keys(a).sort().join());
    expect(keys(aspects)).toEqual(keys(served?.aspects ?? []).slice(0, aspects.length));
  });

  it("docs/api.md names the OpenAPI version the server serves, and no other", async () => {
    const { version } = (await openapi()).info;
    const named = doc("api.md")
      .split("\n")
      .filter((l) => /openapi|info\.version/i.test(l))
      .flatMap((l) => l.match(/\b\d+\.\d+\.\d+\b/g) ?? []);
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([version]));
  });

  it("docs/api.md names every parameter of every operation in /openapi.json", async () => {
    const text = doc("api.md");
    const missing = Object.values((await openapi()).paths)
      .flatMap((ops) => Object.values(ops))
      .flatMap((op) => namesOf(op).map((name) => `${op.operationId}: ${name}`))
      .filter((entry) => !text.includes(`\`${entry.split(": ")[1]}\``));
    expect(missing).toEqual([]);
  });

  it("docs/api.md's example 400 is the body the server sends", async () => {
    const text = doc("api.md");
    const at = text.indexOf("The whole body:");
    const block = /```json\n([\s\S]*?)```/.exec(text.slice(at))?.[1];
    const served = await (await fetch(`${server.url}/api/reviews/search?rating=9&sort=new`)).json();
    expect(JSON.parse(block ?? "null")).toEqual(served);
  });

  it("docs/mcp.md's tool table names every tool and every argument tools/list announces", async () => {
    const client = new Client({ name: "doc-check", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const { tools } = await client.listTools();
    await client.close();
    const rows = doc("mcp.md")
      .split("\n")
      .filter((l) => l.startsWith("| `"));
    const missing = tools.flatMap((tool) => {
      const row = rows.find((r) => r.startsWith(`| \`${tool.name}\` |`));
      if (!row) return [tool.name];
      const args = Object.keys((tool.inputSchema as { properties?: object }).properties ?? {});
      return args.filter((a) => !row.includes(`\`${a}\``)).map((a) => `${tool.name}.${a}`);
    });
    expect(tools.length).toBeGreaterThan(3);
    expect(missing).toEqual([]);
  });

  it("the address list npm start prints names every search parameter", async () => {
    const search = Object.values((await openapi()).paths)
      .flatMap((ops) => Object.values(ops))
      .find((op) => op.operationId === "searchReviews");
    const line = server
      .output()
      .split("\n")
      .find((l) => l.includes("/api/reviews/search"));
    const names = search ? namesOf(search).filter((n) => !/^If-/.test(n)) : [];
    const missing = names.filter((n) => !line?.includes(n));
    expect(names.length).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});
