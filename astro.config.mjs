// @ts-check
import { createHash } from "node:crypto";
import { defineConfig } from "astro/config";
import { loadConfig } from "./src/config.ts";
import { buildOutputs } from "./src/integrations/build-outputs.ts";
import { hubPing } from "./src/integrations/hub-ping.ts";

const config = loadConfig();
// One Astro cache per output folder, so builds into different DIST_DIRs (npm start, tests, the
// benchmark) can run at the same time without sharing a content store.
const cacheKey = createHash("sha256").update(config.DIST_DIR).digest("hex").slice(0, 12);

export default defineConfig({
  site: config.BASE_URL,
  outDir: config.DIST_DIR,
  cacheDir: `./node_modules/.astro/${cacheKey}`,
  output: "static",
  trailingSlash: "ignore",
  build: { format: "directory", inlineStylesheets: "always" },
  devToolbar: { enabled: false },
  integrations: [
    buildOutputs({ baseUrl: config.BASE_URL, baseUrlExplicit: config.baseUrlExplicit }),
    ...(config.HUB_URL === "off"
      ? []
      : [hubPing({ hubUrl: config.HUB_URL ?? config.hubUrl, baseUrl: config.BASE_URL })]),
  ],
});
