/** Latin letters that no decomposition takes to ASCII, as an English reader would spell them. */
const SPELLED: Readonly<Record<string, string>> = {
  ø: "o",
  æ: "ae",
  œ: "oe",
  ß: "ss",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ħ: "h",
  ı: "i",
  ŋ: "ng",
  ŧ: "t",
};
const UNSPELLED = new RegExp(`[${Object.keys(SPELLED).join("")}]`, "g");

/**
 * ASCII kebab-case for a name in an id or an address: accents dropped, letters that do not decompose
 * spelled out, an apostrophe joining the letters around it (`Søren O'Brien` -> `soren-obrien`).
 */
export function slugOf(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(UNSPELLED, (c) => SPELLED[c] ?? c)
    .replace(/['\u2019\u02BC]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
