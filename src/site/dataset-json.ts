import type { ReviewsDataset } from "../content/records.ts";

/**
 * The bytes of `/reviews.json` in pieces: exactly `JSON.stringify(dataset, null, 2)` and a newline,
 * without ever building that string. At 100,000 reviews it is 200 MB (twice that as a two-byte
 * string once one review has a character outside Latin-1), and the build held it, its UTF-8 copy
 * and the response buffer at once. Each review is stringified on its own and indented to its depth
 * in the document; a JSON string never holds a raw line break, so re-indenting after every `\n` is
 * exact.
 */

/** Pieces are joined up to about this many characters before they are encoded. */
const PIECE_CHARS = 256 * 1024;

/** Two spaces per level: a review sits in `reviews`, which sits in the dataset object. */
const REVIEW_INDENT = "    ";

export function* datasetJsonPieces(dataset: ReviewsDataset): Generator<string> {
  const { reviews, ...rest } = dataset;
  const keys = Object.keys(dataset);
  // `reviews` must be the last key for the pieces to go at the end; anything else is stringified whole.
  if (reviews.length === 0 || keys[keys.length - 1] !== "reviews") {
    yield `${JSON.stringify(dataset, null, 2)}\n`;
    return;
  }
  const head = JSON.stringify({ ...rest, reviews: [] }, null, 2);
  // The head ends `"reviews": []\n}`: keep everything up to the bracket that opens the list.
  let piece = head.slice(0, head.length - "]\n}".length);
  for (let i = 0; i < reviews.length; i++) {
    const review = JSON.stringify(reviews[i], null, 2).replaceAll("\n", `\n${REVIEW_INDENT}`);
    piece += `${i === 0 ? "" : ","}\n${REVIEW_INDENT}${review}`;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = "";
    }
  }
  yield `${piece}\n  ]\n}\n`;
}
