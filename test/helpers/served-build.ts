import { afterAll, beforeAll } from "vitest";
import { startApp, type TestApp } from "./app-server.ts";
import { buildBeforeAll } from "./build-site.ts";

/**
 * For a test file or suite: a build of `contentDir` for `baseUrl` (`buildBeforeAll`), served by the
 * app with a rate limit no test reaches, closed before the build is removed.
 */
export function servedBuild(contentDir: string, baseUrl: string): { readonly app: TestApp; readonly distDir: string } {
  const built = buildBeforeAll(contentDir, { BASE_URL: baseUrl });
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startApp(built.distDir, { env: { BASE_URL: baseUrl, RATE_LIMIT_PER_MINUTE: "100000" } });
  });
  afterAll(async () => {
    await app?.close();
  });
  return {
    get app() {
      if (!app) throw new Error(`no app serving ${contentDir} yet: app is read before its beforeAll ran`);
      return app;
    },
    get distDir() {
      return built.distDir;
    },
  };
}
