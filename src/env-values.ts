import { isIP, isIPv6 } from "node:net";
import path from "node:path";
import { z } from "zod";

/**
 * Parsers of environment values, for the one config module (src/config.ts): each takes the
 * variable's text and gives the value or an issue naming the variable and what it got.
 */

/** `true`/`1` or `false`/`0`; `fallback` when unset (undefined: "not said", for a default decided elsewhere). */
export const flag = <T extends boolean | undefined>(name: string, fallback: T) =>
  z
    .string()
    .optional()
    .transform((v, ctx): boolean | T => {
      if (v === undefined || v === "") return fallback;
      if (v === "true" || v === "1") return true;
      if (v === "false" || v === "0") return false;
      ctx.addIssue({ code: "custom", message: `${name} must be true or 1, false or 0, got ${JSON.stringify(v)}` });
      return z.NEVER;
    });
export const bool = (name: string) => flag(name, false);

export const int = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return fallback;
      const n = Number(v);
      if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({
          code: "custom",
          message: `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`,
        });
        return z.NEVER;
      }
      return n;
    });

/** One of `values`; `fallback` when unset. */
export const oneOf = <const V extends string, F extends V | undefined>(
  name: string,
  values: readonly V[],
  fallback: F,
) =>
  z
    .string()
    .optional()
    .transform((v, ctx): V | F => {
      if (v === undefined || v === "") return fallback;
      if ((values as readonly string[]).includes(v)) return v as V;
      ctx.addIssue({ code: "custom", message: `${name} must be ${values.join(" or ")}, got ${JSON.stringify(v)}` });
      return z.NEVER;
    });

/**
 * A folder; `fallback` when unset (undefined: decided elsewhere). Spaces at either end are refused:
 * `DATA_DIR= ` in an env file would otherwise put the service's state in a new folder named " ".
 */
export const dir = <F extends string | undefined>(name: string, fallback: F) =>
  z
    .string()
    .optional()
    .transform((v, ctx): string | F => {
      if (v === undefined || v === "") return fallback === undefined ? fallback : path.resolve(fallback);
      if (v.trim() !== v) {
        ctx.addIssue({
          code: "custom",
          message: `${name} must be a folder path without spaces at either end, got ${JSON.stringify(v)}`,
        });
        return z.NEVER;
      }
      return path.resolve(v);
    });

/** A host name whose last label is not all digits (`999.1.1.1` is no name, and no IPv4 address either). */
const HOST_NAME = /^(?:[A-Za-z0-9-]+\.)*[A-Za-z0-9-]*[A-Za-z-][A-Za-z0-9-]*\.?$/;

/** Whether `h` is a host as a URL writes one: a host name, an IPv4 address, or an IPv6 address in brackets. */
function urlHost(h: string): boolean {
  const v6 = /^\[(.*)\]$/.exec(h)?.[1];
  return v6 === undefined ? isIP(h) === 4 || HOST_NAME.test(h) : isIPv6(v6);
}

/**
 * An IP address, an IPv6 address in brackets as a URL writes it (listen takes it bare), or a host
 * name whose last label is not all digits: `999.1.1.1` is no IPv4 address, and would be looked up
 * as a name only when the server tries to listen.
 */
export const host = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const h = v === undefined || v === "" ? "127.0.0.1" : v;
    if (!urlHost(h) && !isIPv6(h)) {
      ctx.addIssue({ code: "custom", message: `HOST must be a host name or IP address, got ${JSON.stringify(h)}` });
      return z.NEVER;
    }
    return /^\[(.*)\]$/.exec(h)?.[1] ?? h;
  });

export const logLevel = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const level = v === undefined || v === "" ? "info" : v;
    const levels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
    if (!(levels as readonly string[]).includes(level)) {
      ctx.addIssue({
        code: "custom",
        message: `LOG_LEVEL must be one of ${levels.join(", ")}, got ${JSON.stringify(level)}`,
      });
      return z.NEVER;
    }
    return level as (typeof levels)[number];
  });

/** Whether `entry` names a browser origin's host: an http(s) origin, or a bare host name or address. */
function namesOrigin(entry: string): boolean {
  if (/^https?:\/\//i.test(entry)) {
    // The URL parser keeps a `*` in a host ("https://*.app.example"), which no browser's Origin has.
    try {
      return urlHost(new URL(entry).hostname);
    } catch {
      return false;
    }
  }
  return urlHost(entry);
}

/**
 * `*`, or a comma-separated list of origins. An entry that names no host (`*.example.com`, a `*`
 * inside a list) or a list of none would match no Origin, and so silently refuse the browsers meant.
 */
export const origins = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "" || v.trim() === "*") return "*" as const;
    const list = v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = list.length === 0 ? "" : list.find((entry) => !namesOrigin(entry));
    if (bad !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `MCP_ALLOWED_ORIGINS must be * or a comma-separated list of origins (https://app.example,http://localhost:3000), got ${JSON.stringify(bad)} in ${JSON.stringify(v)}`,
      });
      return z.NEVER;
    }
    return list;
  });
