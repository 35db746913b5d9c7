import path from "node:path";
import { isCalendarDate } from "../../src/content/dates.ts";

/** A bad command line. The message names the flag and echoes the value, so it can be fixed at once. */
export class UsageError extends Error {
  override name = "UsageError";
}

export interface CliOptions {
  reviews: number;
  out: string;
  seed: string;
  until: string;
  /** business.yaml to copy and draw the catalogue from; its folder's insights/ is copied too. */
  business: string;
  force: boolean;
  help: boolean;
}

export const MAX_REVIEWS = 1_000_000;
export const DEFAULT_UNTIL = "2026-11-20";
export const DEFAULT_SEED = "1";

export const USAGE = `Usage: npm run generate -- --reviews N --out DIR [options]

Writes a synthetic content folder of N reviews that \`CONTENT_DIR=DIR npm run build\` builds.

  --reviews N       how many reviews, 1 to ${MAX_REVIEWS}
  --out DIR         folder to write; must be empty unless --force
  --seed S          PRNG seed (letters, digits, . _ -); same arguments, same bytes (default ${DEFAULT_SEED})
  --until DATE      last day anything is dated, YYYY-MM-DD (default ${DEFAULT_UNTIL})
  --business FILE   catalogue to use (default $CONTENT_DIR/business.yaml)
  --force           replace business.yaml, reviews/ and insights/ in a non-empty DIR
  --help            show this text
`;

const VALUED = ["--reviews", "--out", "--seed", "--until", "--business"] as const;
const FLAGS = ["--force", "--help"] as const;

/**
 * Parses `argv` (without node and script). `contentDir` supplies the default `--business`; it is
 * called only when that flag is absent, so an explicit file needs no valid environment.
 */
export function parseCliArgs(argv: readonly string[], contentDir: () => string): CliOptions {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if ((FLAGS as readonly string[]).includes(name)) {
      if (name !== arg) throw new UsageError(`${name} takes no value, got ${JSON.stringify(arg.slice(eq + 1))}`);
      flags.add(name);
    } else if ((VALUED as readonly string[]).includes(name)) {
      const value = name !== arg ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      if (values.has(name))
        throw new UsageError(`${name} was given twice, got ${JSON.stringify(value)} the second time`);
      values.set(name, value);
    } else {
      throw new UsageError(
        `unknown argument ${JSON.stringify(arg)}; expected ${[...VALUED, ...FLAGS].join(", ")} (see --help)`,
      );
    }
  }
  const help = flags.has("--help");
  const reviewsRaw = values.get("--reviews");
  const out = values.get("--out");
  if (!help && reviewsRaw === undefined) throw new UsageError("--reviews is required: how many reviews to write");
  if (!help && (out === undefined || out === "")) throw new UsageError("--out is required: the folder to write");
  return {
    reviews: reviewsRaw === undefined ? 0 : reviewCount(reviewsRaw),
    out: path.resolve(out ?? "."),
    seed: seed(values.get("--seed") ?? DEFAULT_SEED),
    until: until(values.get("--until") ?? DEFAULT_UNTIL),
    business: path.resolve(values.get("--business") ?? path.join(contentDir(), "business.yaml")),
    force: flags.has("--force"),
    help,
  };
}

function reviewCount(raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > MAX_REVIEWS) {
    throw new UsageError(`--reviews must be an integer from 1 to ${MAX_REVIEWS}, got ${JSON.stringify(raw)}`);
  }
  return n;
}

function seed(raw: string): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(raw)) {
    throw new UsageError(
      `--seed must be 1 to 64 letters, digits, dots, underscores or hyphens, got ${JSON.stringify(raw)}`,
    );
  }
  return raw;
}

function until(raw: string): string {
  if (!isCalendarDate(raw) || raw < "2000-01-01") {
    throw new UsageError(`--until must be a real date as YYYY-MM-DD from 2000-01-01 on, got ${JSON.stringify(raw)}`);
  }
  return raw;
}
