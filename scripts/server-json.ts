import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pkg from "../package.json" with { type: "json" };
import { ConfigError, loadConfig } from "../src/config.ts";
import { siteUrls } from "../src/urls.ts";

/**
 * `npm run server-json`: writes `server.json`, this service's entry for the MCP Registry
 * (https://registry.modelcontextprotocol.io), for the deployment at BASE_URL. The entry is a
 * remote: clients connect to `{BASE_URL}/mcp` over streamable HTTP; nothing is installed. Its name
 * is BASE_URL's host reversed (`reviews.example.org` → `org.example.reviews/public-reviews`),
 * the namespace the registry lets the owner of that domain publish under (docs/mcp.md).
 *
 * Without BASE_URL it writes nothing: the committed entry names the public deployment, and the
 * `http://localhost:4321` a bare run would derive must never replace it. `--print` writes the
 * entry to stdout instead of the file (with the derived origin when BASE_URL is unset).
 */

/** The schema the entry is written against; test/fixtures/mcp-registry holds a copy. */
export const SERVER_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

export interface ServerJson {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  websiteUrl: string;
  remotes: { type: "streamable-http"; url: string }[];
}

/** The registry entry for the service at `baseUrl`. */
export function serverJson(baseUrl: string): ServerJson {
  const urls = siteUrls(baseUrl);
  const host = new URL(urls.base).hostname;
  return {
    $schema: SERVER_SCHEMA,
    name: `${host.split(".").reverse().join(".")}/${pkg.name}`,
    title: "Verified customer reviews",
    description: "Search the verified reviews of one practice, with aspect insights, feeds and what is new.",
    version: pkg.version,
    websiteUrl: urls.home,
    remotes: [{ type: "streamable-http", url: urls.mcp }],
  };
}

export const SERVER_JSON_FILE = path.resolve(import.meta.dirname, "../server.json");

/** The command; returns the exit code. `file` is where the entry is written (server.json). */
export function main(deps: {
  argv: string[];
  env: NodeJS.ProcessEnv;
  file: string;
  out: (text: string) => void;
  err: (text: string) => void;
}): number {
  let print: boolean | undefined;
  try {
    ({
      values: { print },
    } = parseArgs({ args: deps.argv, options: { print: { type: "boolean" } }, strict: true }));
  } catch (err) {
    deps.err(
      `server-json: ${(err as Error).message}\nusage: BASE_URL=https://reviews.example.org npm run server-json [-- --print]\n`,
    );
    return 2;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(deps.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    deps.err(`${err.message}\n`);
    return 1;
  }
  const entry = `${JSON.stringify(serverJson(config.BASE_URL), null, 2)}\n`;
  if (print) {
    deps.out(entry);
    return 0;
  }
  if (!config.baseUrlExplicit) {
    deps.err(
      `server-json: BASE_URL is not set, so ${path.basename(deps.file)} is left as it is — set BASE_URL to the public origin (BASE_URL=https://reviews.example.org npm run server-json), or print the entry with -- --print\n`,
    );
    return 1;
  }
  writeFileSync(deps.file, entry);
  deps.out(`Wrote ${deps.file} for ${config.BASE_URL}\n`);
  return 0;
}

if (import.meta.main) {
  process.exitCode = main({
    argv: process.argv.slice(2),
    env: process.env,
    file: SERVER_JSON_FILE,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}
