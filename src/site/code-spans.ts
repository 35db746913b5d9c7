/**
 * The code spans of a CommonMark text (OpenAPI descriptions are CommonMark, OpenAPI 3.1 §4.8):
 * the text in pieces, each either plain or `code`, for a page to show as text and `<code>`.
 * A run of backticks opens a span closed by the next run of the same length; with none, it is
 * plain text. As CommonMark says, a line ending inside a span is a space, and one space is taken
 * off each side when both ends have one and the span is not only spaces.
 */
export interface TextPiece {
  text: string;
  code: boolean;
}

export function codeSpans(source: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  const plain = (text: string) => {
    const last = pieces.at(-1);
    if (last && !last.code) last.text += text;
    else if (text) pieces.push({ text, code: false });
  };
  const runs = /`+/g;
  let from = 0;
  for (let open = runs.exec(source); open; open = runs.exec(source)) {
    const fence = open[0];
    const start = open.index + fence.length;
    let close = runs.exec(source);
    while (close && close[0].length !== fence.length) close = runs.exec(source);
    if (!close) {
      // No closing run: these backticks are text, and the search goes on just after them.
      runs.lastIndex = start;
      continue;
    }
    plain(source.slice(from, open.index));
    let code = source.slice(start, close.index).replace(/\r\n|\r|\n/g, " ");
    if (code.length >= 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") code = code.slice(1, -1);
    pieces.push({ text: code, code: true });
    from = runs.lastIndex;
  }
  plain(source.slice(from));
  return pieces;
}
