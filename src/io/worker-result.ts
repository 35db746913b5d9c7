import { Worker } from "node:worker_threads";

/**
 * Runs the worker thread at `file` on `workerData` and resolves with the one message it posts; a
 * throw in it, or an exit with another code, rejects (`what` names it in the error).
 */
export function workerResult<T>(file: string, workerData: unknown, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(file, { workerData });
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`${what} exited with code ${code}`));
    });
  });
}
