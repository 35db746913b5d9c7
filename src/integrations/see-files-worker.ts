import { parentPort, workerData } from "node:worker_threads";
import { seeFiles } from "./out-dir.ts";

/** A worker of `seeFilesAside` (out-dir.ts): lists the output folder it is given and sends back what it found. */
parentPort?.postMessage(seeFiles(workerData as string));
