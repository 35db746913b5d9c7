import { execFile, execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/**
 * The independent verifier of the review log (test/go/logverify, on Go's sumdb/note and
 * sumdb/tlog), built once with Debian's Go in GOPATH mode from the packages under
 * /usr/share/gocode, offline. Without Go or those packages the tests that use it are skipped,
 * saying why.
 */

const GOPATH = "/usr/share/gocode";
const SOURCE = path.resolve(import.meta.dirname, "../go/logverify");

export function goUnavailable(): string | undefined {
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
  } catch {
    return "no go on PATH: install Debian's golang-go and golang-golang-x-mod-dev";
  }
  try {
    execFileSync("test", ["-d", path.join(GOPATH, "src/golang.org/x/mod/sumdb/tlog")]);
  } catch {
    return `no ${GOPATH}/src/golang.org/x/mod/sumdb: install Debian's golang-golang-x-mod-dev`;
  }
  return undefined;
}

export interface GoVerifier {
  run(args: string[]): Promise<{ code: number; out: string; err: string }>;
  remove(): Promise<void>;
}

export async function buildGoVerifier(): Promise<GoVerifier> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pr-go-verifier-"));
  const env = { ...process.env, GO111MODULE: "off", GOPATH, GOCACHE: path.join(dir, "cache"), GOFLAGS: "" };
  const bin = path.join(dir, "logverify");
  await promisify(execFile)("go", ["build", "-o", bin, "."], { cwd: SOURCE, env });
  return {
    run: (args) =>
      new Promise((resolve) => {
        execFile(bin, args, (err, out, errOut) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out, err: errOut }),
        );
      }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
