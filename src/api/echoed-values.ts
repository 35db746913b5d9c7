/**
 * How much of a value a refusal echoes: a 400's issue (REST, the hub's JSON body, an MCP `isError`
 * result) and the messages that quote what was sent. A value may be as long as the request that
 * carried it (16 kB for the hub, 64 KiB for MCP), so each refusal would have sent it back whole.
 */

/** The most characters (code points) of a sent string an echo keeps. */
export const MAX_ECHOED_CHARACTERS = 200;
/** A repeated parameter of at most this many values is echoed as an array of them. */
const MAX_ECHOED_ITEMS = 20;

const codePoints = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** `text` as echoed: whole up to MAX_ECHOED_CHARACTERS, else its first ones, `…` and its length. */
export function echoedText(text: string, unit = "characters"): string {
  if (text.length <= MAX_ECHOED_CHARACTERS || codePoints(text) <= MAX_ECHOED_CHARACTERS) return text;
  const kept = Array.from(text.slice(0, 2 * MAX_ECHOED_CHARACTERS)).slice(0, MAX_ECHOED_CHARACTERS);
  return `${kept.join("")}… (${codePoints(text)} ${unit})`;
}

/**
 * `value` as an issue echoes it: a string as `echoedText`, a repeated parameter (a few strings) as
 * those strings each so, and any other value whose JSON is too long as that JSON text, cut the same way.
 */
export function echoedValue(value: unknown): unknown {
  if (typeof value === "string") return echoedText(value);
  if (Array.isArray(value) && value.length <= MAX_ECHOED_ITEMS && value.every((v) => typeof v === "string")) {
    return value.map((v) => echoedText(v));
  }
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  const echoed = echoedText(json, "characters of JSON");
  return echoed === json ? value : echoed;
}

/** The JSON text of `echoedValue(value)`, for a message that quotes what was sent (`got "…"`). */
export function shownValue(value: unknown): string {
  return JSON.stringify(echoedValue(value)) ?? "nothing";
}
