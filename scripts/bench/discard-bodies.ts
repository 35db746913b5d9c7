import { createRequire } from "node:module";

/**
 * autocannon 8 appends every response body to a string (`req.body += data` in
 * lib/pipelinedRequestsQueue.js, autocannon issue #362): a UTF-8 decode of every byte received.
 * For a compressed body that is binary data on the decoder's slow path, about 100 µs of the load
 * generator's CPU per 6 KB zstd search page, against a few µs for `/healthz`'s small text, so
 * the client's core ran out before the server's and every search rate measured the client (the
 * log's "The load generator", issue 35). The bench reads no bodies (no `expectBody`,
 * `verifyBody` or `onResponse`), so bodies are dropped; bytes are still received, parsed and
 * counted as before.
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
