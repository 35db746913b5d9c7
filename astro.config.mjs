// @ts-check
import { defineConfig } from "astro/config";
import { loadConfig } from "./src/config.ts";
import { buildOutputs } from "./src/integrations/build-outputs.ts";

const config = loadConfig();

export default defineConfig({
  site: config.BASE_URL,
  outDir: config.DIST_DIR,
  output: "static",
  trailingSlash: "ignore",
  build: { format: "directory", inlineStylesheets: "always" },
  devToolbar: { enabled: false },
  integrations: [buildOutputs({ baseUrl: config.BASE_URL })],
});
