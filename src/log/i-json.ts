/**
 * I-JSON (RFC 7493) checks of JSON text a monitor reads. RFC 8785 canonicalises I-JSON only, and
 * a record is what the log vouches for only if every reader reads the same one from its bytes.
 */

/**
 * The first member name that one object of `text` (valid JSON) holds twice, compared unescaped,
 * or undefined. RFC 7493 section 2.3: names MUST be unique, since readers differ on which of two
 * they keep (JSON.parse keeps the last, others the first).
 */
export function duplicateMemberName(text: string): string | undefined {
  // One entry per open object (the names seen) or array (null).
  const open: (Set<string> | null)[] = [];
  let nameNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const names = open.at(-1);
      if (names && nameNext) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (names.has(name)) return name;
        names.add(name);
        nameNext = false;
      }
      i = end;
    } else if (c === "{") {
      open.push(new Set());
      nameNext = true;
    } else if (c === "[") {
      open.push(null);
      nameNext = false;
    } else if (c === "}" || c === "]") {
      open.pop();
      nameNext = false;
    } else if (c === ",") {
      nameNext = open.at(-1) instanceof Set;
    }
  }
  return undefined;
}
