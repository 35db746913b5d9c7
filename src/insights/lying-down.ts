import type { TokenTable } from "./nlp.ts";

/**
 * Words before "lie down" that make it a need of the body: "no longer need to lie down", "when I can
 * lie down", one that lasts ("still lying down most of the day", "spent all weekend lying down") or
 * one it is hard to meet ("I have trouble lying down", "I struggle to lie down").
 */
const NEEDED = new Set(
  "need can could able unable barely have still keep spend trouble difficulty struggle hard difficult hurt".split(" "),
);

/**
 * Whether tokens `start`…`end` are "lie down" as the patient's place on the table ("he told me to
 * lie down", "just lie down and crack", "before you lie down"), no need the pain made; "I no longer
 * need to lie down after work" and "had to lie down all weekend" still are one.
 */
export function lyingOnTheTable(
  { normals, lemmas }: Pick<TokenTable, "normals" | "lemmas">,
  start: number,
  end: number,
) {
  if (end - start !== 2 || lemmas[start] !== "lie" || normals[start + 1] !== "down") return false;
  // "had me lie down" is the practitioner's bidding, "had to lie down" the body's.
  const before = lemmas.slice(Math.max(0, start - 3), start);
  return !before.some((l, k) => NEEDED.has(l) && !(l === "have" && before[k + 1] !== "to"));
}
