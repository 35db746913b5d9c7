/**
 * A small seeded PRNG so generated content depends only on the arguments. `Math.random` cannot be
 * seeded, and the output must be byte-identical across runs and machines.
 */

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks a key with probability proportional to its weight. */
  weighted<K extends string | number>(weights: readonly (readonly [K, number])[]): K;
  /** `k` distinct items in random order (all of them when `k >= items.length`). */
  sample<T>(items: readonly T[], k: number): T[];
}

/** cyrb128: spreads any string over four 32-bit words, the seed state sfc32 needs. */
function hashSeed(seed: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

/** sfc32 (Chris Doty-Humphrey's Small Fast Counting generator), seeded from a string. */
export function createRng(seed: string): Rng {
  let [a, b, c, d] = hashSeed(seed);
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // The first outputs of a freshly seeded sfc32 are poorly mixed.
  for (let i = 0; i < 15; i++) next();

  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(next() * items.length)] as T;
  };
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick,
    weighted(weights) {
      let total = 0;
      for (const [, w] of weights) total += w;
      let r = next() * total;
      for (const [key, w] of weights) {
        r -= w;
        if (r < 0) return key;
      }
      return (weights[weights.length - 1] as (typeof weights)[number])[0];
    },
    sample(items, k) {
      const copy = [...items];
      const n = Math.min(k, copy.length);
      // Partial Fisher-Yates: only the first n slots are shuffled.
      for (let i = 0; i < n; i++) {
        const j = int(i, copy.length - 1);
        [copy[i], copy[j]] = [copy[j] as (typeof copy)[number], copy[i] as (typeof copy)[number]];
      }
      return copy.slice(0, n);
    },
  };
}
