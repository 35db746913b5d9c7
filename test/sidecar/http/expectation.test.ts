import { rm } from "node:fs/promises";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

// An Expect field other than 100-continue (RFC 9110 §10.1.1), which fetch cannot send.
let app: TestApp;
let dist: string;

beforeAll(async () => {
  const build = await buildSite(PROJECT_CONTENT);
  expect(build.code, build.stderr).toBe(0);
  dist = build.distDir;
  app = await startApp(dist);
});

afterAll(async () => {
  await app?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

function rawRequest(text: string): Promise<{ status: number; head: string; body: string }> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = Buffer.concat(chunks).toString("utf8").split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), head: head.toLowerCase(), body });
    });
  });
}

describe("a request with an expectation the server does not know", () => {
  it("gets the app's own answer, headers and all, not Node's bare 417", async () => {
    for (const target of ["/feed.xml", "/api/reviews/search?rating=9", "/api/nowhere"]) {
      const res = await rawRequest(
        `GET ${target} HTTP/1.1\r\nHost: localhost\r\nExpect: x-unknown\r\nConnection: close\r\n\r\n`,
      );
      const plain = await fetch(`${app.url}${target}`);
      expect(res.status, target).toBe(plain.status);
      expect(res.head, target).toContain("x-content-type-options: nosniff");
      expect(res.head, target).toContain("access-control-allow-origin: *");
      expect(res.head, target).toContain(`content-type: ${plain.headers.get("content-type")}`);
      await plain.body?.cancel();
    }
  });
});
