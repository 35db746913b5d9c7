/**
 * Preloaded into every build process (`--import`: BUILD_NODE_FLAGS and `npm run build` for one-off
 * builds, and npm start's build worker, src/build/astro-worker.ts), before Astro loads Vite. Vite
 * bundles with Rolldown, whose native binding has its own allocator (mimalloc). By default that
 * allocator kept about 190 MB of the bundling's freed memory mapped
 * for the rest of the build, whatever the review count: a fifth of a 10,000-review build's peak RSS.
 * These options make it return freed memory to the system at once, without an arena committed up
 * front: peak RSS 1,003 → 847 MiB at 10,000 reviews, about 1,500 → 1,320 MiB at 100,000, with no
 * more CPU (docs/benchmarks-log.md, 2026-12-04, eighth session). mimalloc reads them from the
 * environment when the binding loads, after this module has run; a caller's own setting wins.
 */
export const NATIVE_MEMORY_ENV: Readonly<Record<string, string>> = {
  MIMALLOC_PURGE_DELAY: "0",
  MIMALLOC_ARENA_EAGER_COMMIT: "0",
};

for (const [name, value] of Object.entries(NATIVE_MEMORY_ENV)) process.env[name] ??= value;
