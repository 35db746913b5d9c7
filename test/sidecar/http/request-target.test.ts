import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../../helpers/app-server.ts";
import { buildBeforeAll } from "../../helpers/build-site.ts";
import { PROJECT_CONTENT } from "../../helpers/project-content.ts";
import { rawRequest } from "../../helpers/raw-http.ts";

// Requests fetch cannot send: the asterisk-form request target (RFC 9112 §3.2.4), an Expect.
let app: TestApp;

const built = buildBeforeAll(PROJECT_CONTENT);

beforeAll(async () => {
  app = await startApp(built.distDir);
});

afterAll(async () => {
  await app?.close();
});

const raw = (text: string) => rawRequest(app.url, text);

describe("the request target *", () => {
  it("answers OPTIONS * with 204 and no body, the server-wide ping of RFC 9110 §9.3.7", async () => {
    const res = await raw("OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    expect(res.status).toBe(204);
    expect(res.body).toBe("");
  });

  it("answers any other method with the API's 400, naming the target", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const res = await raw(
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

describe("a request with an expectation the server does not know", () => {
  it("gets the app's own answer, headers and all, not Node's bare 417", async () => {
    for (const target of ["/feed.xml", "/api/reviews/search?rating=9", "/api/nowhere"]) {
      const res = await raw(
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
