// In src/content, so the content check's cache key (src/io/yaml-cache.ts) covers it with the rest of the check.
/** `text` with every character a regular expression reads as syntax escaped, to match it as written. */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
