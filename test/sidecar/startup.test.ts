import net from "node:net";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, withListeningPort } from "../../src/config.ts";

/** The configuration `loadConfig` reads from the environment: what it refuses, and how it says so. */

describe("configuration", () => {
  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["BASE_URL", "not a url"],
    ["BASE_URL", "ftp://example.com"],
    // An empty query or fragment, or a password without a user, is still not a bare origin.
    ["BASE_URL", "https://example.com/?"],
    ["BASE_URL", "https://example.com/#"],
    ["BASE_URL", "https://user@example.com"],
    // The review log's origin, its host and path, names its signing key, which holds no "+".
    ["BASE_URL", "https://example.com/c++reviews"],
    // Port 0 is where a server listens on any free port; permalinks and hub topics there reach nothing.
    ["BASE_URL", "http://localhost:0"],
    ["BASE_URL", "https://example.com:00"],
    ["HUB_URL", "not a url"],
    ["HUB_URL", "ftp://hub.example.com/"],
    ["LOG_LEVEL", "loud"],
    ["HUB_ALLOW_PRIVATE_CALLBACKS", "maybe"],
    ["HUB_RETRY_BASE_MS", "-5"],
    ["UNFINISHED_REVIEWS", "later"],
    ["LOG_FORMAT", "yaml"],
    ["ACCESS_LOG", "sometimes"],
    // A folder named by a stray space (`DATA_DIR= ` in an env file) would be created and used.
    ["DATA_DIR", " "],
    ["DIST_DIR", "dist "],
    ["LOG_DIR", " "],
    ["CONTENT_DIR", " content"],
    // No IPv4 address, and no name either: getaddrinfo would refuse it only when listening.
    ["HOST", "999.1.1.1"],
    ["HOST", "[reviews.example]"],
    // An entry naming no host matches no Origin: the browsers it was meant for would all get 403.
    ["MCP_ALLOWED_ORIGINS", "*.app.example"],
    ["MCP_ALLOWED_ORIGINS", "https://*.app.example"],
    ["MCP_ALLOWED_ORIGINS", "https://app.example, *"],
    ["MCP_ALLOWED_ORIGINS", " , "],
  ])("rejects %s=%s, naming the variable and the value", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(
      new RegExp(`${name}.*${JSON.stringify(value).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
    );
  });

  it("names both spellings a flag takes, as the docs write LOG_NEW=1", () => {
    expect(() => loadConfig({ LOG_NEW: "yes" })).toThrow('LOG_NEW must be true or 1, false or 0, got "yes"');
  });

  it("rejects a BASE_URL with a password without echoing the password", () => {
    expect(() => loadConfig({ BASE_URL: "https://u:s3cret@reviews.example" })).toThrow(
      'BASE_URL must be an http(s) URL without query, fragment or credentials, got "https://u:***@reviews.example/"',
    );
    expect(() => loadConfig({ BASE_URL: "https://u:s3cret@reviews.example" })).not.toThrow(/s3cret/);
  });

  it("rejects a HUB_URL with credentials, which the ping cannot send, without echoing the password", () => {
    expect(() => loadConfig({ HUB_URL: "https://ping:s3cret@hub.example/hub" })).toThrow(
      'HUB_URL must be an http(s) URL without a user name or password (the ping cannot send them), got "https://ping:***@hub.example/hub"',
    );
  });

  it("listens on HOST=[::1], an IPv6 address written as a URL writes it", async () => {
    const { HOST } = loadConfig({ HOST: "[::1]" });
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, HOST, resolve));
    expect(server.address()).toMatchObject({ address: "::1", family: "IPv6" });
    await new Promise((resolve) => server.close(resolve));
  });

  it("says a DATABASE_URL that is no URL is no URL, not that it has no scheme, and echoes no password", () => {
    for (const value of [
      "postgres://app:s3cret@db.example:five/reviews",
      "postgres://app:s3cret@[db.example/reviews",
    ]) {
      expect(() => loadConfig({ DATABASE_URL: value })).toThrow(
        "DATABASE_URL must be a postgres:// URL, got a value that does not parse as a URL",
      );
      expect(() => loadConfig({ DATABASE_URL: value })).not.toThrow(/s3cret/);
    }
    expect(() => loadConfig({ DATABASE_URL: "mysql://app:s3cret@db.example/reviews" })).toThrow(
      /DATABASE_URL must be a postgres:\/\/ URL, got mysql:$/,
    );
  });

  it("applies the documented defaults", () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(4321);
    expect(c.HOST).toBe("127.0.0.1");
    expect(c.BASE_URL).toBe("http://localhost:4321");
    expect(c.hubUrl).toBe("http://localhost:4321/api/websub/hub");
    expect(c.HUB_ALLOW_PRIVATE_CALLBACKS).toBe(false);
  });

  it("derives BASE_URL from PORT when it is unset, and keeps an explicit one", () => {
    const derived = loadConfig({ PORT: "4601" });
    expect(derived).toMatchObject({
      BASE_URL: "http://localhost:4601",
      baseUrlExplicit: false,
      hubUrl: "http://localhost:4601/api/websub/hub",
    });
    // PORT=0: npm start learns the real port before its first build.
    expect(withListeningPort(loadConfig({ PORT: "0" }), 39123).BASE_URL).toBe("http://localhost:39123");
    const explicit = loadConfig({ PORT: "4601", BASE_URL: "https://reviews.example.com/" });
    expect(explicit).toMatchObject({ BASE_URL: "https://reviews.example.com", baseUrlExplicit: true });
    expect(withListeningPort(explicit, 39123).BASE_URL).toBe("https://reviews.example.com");
  });
});
