import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";

/**
 * The sidecar's own databases (the hub's holds subscribers' `hub.secret` values, the MCP sessions'
 * one the hashes of live session ids) are created readable by their owner only (0600), and one made
 * by an earlier version is narrowed. SQLite gives its -wal and -shm files the database file's mode;
 * existing ones are narrowed too.
 */
export function ownerOnly(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, "a", 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
}
