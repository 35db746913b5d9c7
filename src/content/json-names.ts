/**
 * The first member name given twice in one object of a JSON text, as its JSON path
 * (`$.params.arguments.rating`), or undefined. I-JSON (RFC 7493 §2.3) forbids duplicate names, and
 * JSON.parse keeps the last one silently: `{"rating":1,"rating":5}` searched for five stars and said
 * nothing of the 1. Names are compared as decoded (`"a"` and `"\u0061"` are one name). One pass,
 * no recursion; the text is the POST body, at most 64 KiB, and not yet known to be valid JSON (a
 * text that is not is refused by the parse that follows, whatever this says of it).
 */
export function duplicateName(text: string): string | undefined {
  type Frame = { names?: Set<string>; key?: string; index: number; path: string };
  const stack: Frame[] = [];
  const childPath = (top: Frame | undefined) =>
    top === undefined ? "$" : top.names ? `${top.path}.${escaped(top.key ?? "")}` : `${top.path}[${top.index}]`;
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      // { or [
      const path = childPath(stack.at(-1));
      stack.push(c === 0x7b ? { names: new Set(), index: 0, path } : { index: 0, path });
      expectName = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      expectName = false;
    } else if (c === 0x2c) {
      // ,
      const top = stack.at(-1);
      if (top?.names) expectName = true;
      else if (top) top.index++;
    } else if (c === 0x22) {
      // A string: to the next quote no backslash escapes.
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
      const top = stack.at(-1);
      if (expectName && top?.names) {
        let name: string;
        try {
          name = JSON.parse(text.slice(i, end + 1)) as string;
        } catch {
          return undefined; // not JSON: the parse says so
        }
        if (top.names.has(name)) return capped(`${top.path}.${escaped(name)}`);
        top.names.add(name);
        top.key = name;
        expectName = false;
      }
      i = end;
    }
  }
  return undefined;
}

const escaped = (name: string) => JSON.stringify(name).slice(1, -1);
/** As the other refusals quote a path: at most 200 characters. */
const capped = (path: string) => (path.length > 200 ? `${path.slice(0, 200).toWellFormed()}…` : path);
