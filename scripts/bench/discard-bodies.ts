import { createRequire } from "node:module";

/**
 * autocannon 8 decodes every response body into a string (`req.body += data`, autocannon issue
 * #362): about 100 µs of the client's CPU per compressed search page, so the search rates measured
 * the load generator (docs/benchmarks-log.md, "The load generator"). The bench reads no bodies, so
 * they are dropped; their bytes are still received, parsed and counted.
 */
export function discardResponseBodies(): void {
  const require = createRequire(import.meta.url);
  const queue = require("autocannon/lib/pipelinedRequestsQueue.js") as {
    prototype: { addBody?: (data: Buffer) => void };
  };
  // Fail loudly if an autocannon upgrade moved it, rather than measure the decoding again unnoticed.
  if (typeof queue.prototype.addBody !== "function") {
    throw new Error("autocannon's PipelinedRequestsQueue.addBody is gone: see scripts/bench/discard-bodies.ts");
  }
  queue.prototype.addBody = () => {};
}
