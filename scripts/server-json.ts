import { writeFileSync } from "node:fs";
import path from "node:path";
import pkg from "../package.json" with { type: "json" };
import { ConfigError, loadConfig } from "../src/config.ts";
import { siteUrls } from "../src/urls.ts";

/**
 * `npm run server-json`: writes `server.json`, this service's entry for the MCP Registry
 * (https://registry.modelcontextprotocol.io), for the deployment at BASE_URL. The entry is a
 * remote: clients connect to `{BASE_URL}/mcp` over streamable HTTP; nothing is installed. Its name
 * is BASE_URL's host reversed (`reviews.example.org` → `org.example.reviews/public-reviews`),
 * the namespace the registry lets the owner of that domain publish under (docs/mcp.md).
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

if (import.meta.main) {
  let baseUrl: string;
  try {
    baseUrl = loadConfig().BASE_URL;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  writeFileSync(SERVER_JSON_FILE, `${JSON.stringify(serverJson(baseUrl), null, 2)}\n`);
  process.stdout.write(`Wrote ${SERVER_JSON_FILE} for ${baseUrl}\n`);
}
