/**
 * How the hub recognises a topic URL. W3C WebSub §5.1.1: "Hubs MUST always decode non-reserved
 * characters" of the topic and callback URLs. RFC 3986 §2.3 counts a percent-encoded unreserved
 * character equal to the character, and the WHATWG URL parser leaves such escapes in a path
 * (`/%66eed%2Exml` stays so), so they are decoded first and the URL then serialised as WHATWG does.
 * (A callback's key is decoded so too, but not re-serialised: callback-url.ts.)
 */

const ESCAPE = /%([0-9A-Fa-f]{2})/g;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * `raw` with every percent-encoded unreserved character decoded, and other escapes with upper-case
 * hex digits: RFC 3986 §6.2.2.1 counts `%3a` and `%3A` equal and normalises them so.
 */
export function decodeUnreserved(raw: string, upperCase = true): string {
  return raw.replace(ESCAPE, (triplet, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    if (UNRESERVED.test(char)) return char;
    return upperCase ? triplet.toUpperCase() : triplet;
  });
}

/** The form topic URLs are compared in, or undefined when `raw` is not a URL. */
export function topicKey(raw: string): string | undefined {
  try {
    return new URL(decodeUnreserved(raw)).href;
  } catch {
    return undefined;
  }
}
