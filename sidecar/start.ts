import { ConfigError, loadConfig } from "../src/config.ts";
import { main, type Service, StartError } from "./main.ts";

/**
 * `npm start` and `npm run sidecar` (`--sidecar-only`): runs `main()` and stops it on SIGTERM or
 * SIGINT. `npm start` runs node through `exec`, so a signal to npm's PID reaches this process.
 */

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let service: Service;
try {
  service = await main({
    config: loadConfig(),
    sidecarOnly: process.argv.includes("--sidecar-only"),
    env: process.env,
    out: process.stdout,
  });
} catch (err) {
  if (err instanceof ConfigError || err instanceof StartError) fail(err.message);
  throw err;
}

const shutdown = (signal: string) => {
  service.logger.info({ signal }, "shutting down: finishing in-flight requests");
  void service.close().then(() => process.exit(0));
};
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
