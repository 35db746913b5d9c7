import jsYaml from "js-yaml";
import { SOURCE_PLATFORMS, VERIFICATION_METHODS } from "../../src/content/schema.ts";
import type { Method, Platform } from "./args.ts";

/**
 * The text of a scaffolded review file: every field present, each with a comment saying whether it
 * is required and how to fill it, and the values the editor gave already written. `hint` is comment
 * lines listing the catalogue's ids.
 */
export function scaffoldText(o: {
  id: string;
  date: string;
  today: string;
  publishedAt: string;
  author: string;
  rating?: number;
  title?: string;
  text?: string;
  platform?: Platform;
  verifiedBy?: Method;
  hint: string[];
}): string {
  // Only the newline dump ends with: trimEnd would also strip an em space that ends a plain
  // scalar, and `1984<em space>` would be written as the number 1984.
  const scalar = (v: string) => jsYaml.dump(v, { lineWidth: -1 }).replace(/\n$/, "");
  return [
    `# Review ${o.id}, scaffolded by \`npm run review:new\`.`,
    "# The file name is the review's permanent id: do not rename it once published. Fill in every",
    "# REQUIRED field; `npm run check` names any field that is still missing or wrong.",
    "",
    `# REQUIRED. Day of the review as YYYY-MM-DD, in ${o.date.slice(0, 4)} (the folder this file is in).`,
    `date: ${o.date}`,
    "# REQUIRED. When the review is published here (RFC 3339, UTC); if others go first, set it anew.",
    `published_at: "${o.publishedAt}"`,
    "# REQUIRED. Whole stars from 1 to 5.",
    o.rating === undefined ? "rating:" : `rating: ${o.rating}`,
    "# REQUIRED. The name the reviewer signs with: first name and last initial, or initials.",
    `author: ${scalar(o.author)}`,
    "# OPTIONAL. The reviewer's headline; remove the # to use it.",
    o.title === undefined ? "# title:" : `title: ${scalar(o.title)}`,
    '# REQUIRED. The review exactly as written: plain text, at most 5000 characters. Replace ""',
    "# with a block, indenting every line of the review by two spaces:",
    "#   text: |",
    "#     First paragraph of the review...",
    o.text === undefined ? 'text: ""' : `text: ${scalar(o.text)}`,
    "source:",
    `  # REQUIRED. Where it was posted: ${SOURCE_PLATFORMS.join(", ")} (direct: sent to the practice).`,
    o.platform === undefined ? "  platform:" : `  platform: ${o.platform}`,
    "  # OPTIONAL. Link to the original review.",
    "  # url: https://",
    "# REQUIRED. Only verified reviews are published, and readers see how each one was verified.",
    "verification:",
    ...wrapComment(
      `REQUIRED, and a public claim: how you confirmed the reviewer is a patient: ${VERIFICATION_METHODS.join(", ")} (docs/editors.md says what each means). Write it only once you have checked.`,
      "  # ",
      "  # ",
    ),
    o.verifiedBy === undefined ? "  method:" : `  method: ${o.verifiedBy}`,
    "  # REQUIRED. The day you checked; not before date, not in the future.",
    o.verifiedBy === undefined ? "  verified_on:" : `  verified_on: ${o.today}`,
    "# OPTIONAL. Ids from business.yaml. People, services and places named in the text are",
    "# detected anyway, so list only those the text does not name.",
    ...o.hint,
    "# technicians: []",
    "# services: []",
    "# service_areas: []",
    "# OPTIONAL. The practice's public reply: on or after date, not in the future.",
    "# response:",
    `#   date: ${o.today}`,
    "#   text: |",
    "#     Thank you ...",
    "",
  ].join("\n");
}

/** Splits a comment at spaces so the scaffold stays readable in a narrow editor. */
export function wrapComment(text: string, first: string, rest: string, width = 100): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(" ")) {
    const prefix = lines.length === 0 ? first : rest;
    if (line.length + word.length + 1 > width && line !== prefix) {
      lines.push(line.trimEnd());
      line = rest;
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines;
}
