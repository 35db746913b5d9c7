import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";

/**
 * The database holds subscribers' `hub.secret` values: it is created readable by its owner only
 * (0600), and one made by an earlier version is narrowed. SQLite gives its -wal and -shm files the
 * database file's mode; existing ones are narrowed too.
 */
export function ownerOnly(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, "a", 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
}
