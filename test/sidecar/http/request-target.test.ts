import { rm } from "node:fs/promises";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildSite } from "../../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";

// The asterisk-form request target (RFC 9112 §3.2.4), which fetch cannot send.
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

describe("the request target *", () => {
  it("answers OPTIONS * with 204 and no body, the server-wide ping of RFC 9110 §9.3.7", async () => {
    const res = await rawRequest("OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    expect(res.status).toBe(204);
    expect(res.body).toBe("");
  });

  it("answers any other method with the API's 400, naming the target", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const res = await rawRequest(
        `${method} * HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status, method).toBe(400);
      expect(res.head, method).toContain("content-type: application/json");
      const body = JSON.parse(res.body);
      expect(body.error, method).toBe("bad_request");
      expect(body.issues, method).toEqual([{ path: "(request)", value: "*", message: body.message }]);
    }
  });
});
