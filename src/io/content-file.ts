import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, type Stats } from "node:fs";
import path from "node:path";
import { ContentError, messageStart, problem } from "../content/errors.ts";

/**
 * Reading one file of the content folder without ever leaving it. A symbolic link that resolves
 * outside the folder (`reviews/2026/x.yaml -> /etc/passwd`) was followed: its text was published,
 * or, when it was not a review, echoed line by line in the build's and `npm run check`'s YAML
 * errors, which a pull-request check prints in a public log. Such a link is refused before
 * anything is opened, and so is a file that is not a regular file (a FIFO would block the build,
 * a device would be read without end). The refusal names the file as the editor sees it, never
 * what the link points to. Links that stay inside the folder are followed.
 */

/** The content folder with every link in its own path resolved, to compare resolved files against. */
export interface ContentRoot {
  real: string;
}

export function contentRoot(dir: string): ContentRoot {
  try {
    return { real: realpathSync.native(dir) };
  } catch {
    // Missing: reading business.yaml then fails with ENOENT, which is the message to give.
    return { real: path.resolve(dir) };
  }
}

/** Why the system refused to open a file, in words an editor acts on; the code stays for a search. */
const UNREADABLE: Readonly<Record<string, string>> = {
  ENOENT: "it does not exist (deleted or renamed, or a link to a file that is gone) — restore it",
  EACCES: "you may not read it (permission denied) — give yourself read access to it",
  EPERM: "you may not read it (permission denied) — give yourself read access to it",
  ELOOP: "it is a link that leads back to itself — put the file itself here",
  ENAMETOOLONG: "its path is too long — shorten the names of its folders",
};

function unreadableProblem(file: string, code: string | undefined, p: string): string {
  const why = (code !== undefined && UNREADABLE[code]) || "the system refused to open it";
  return problem(file, "(file)", `cannot read the file: ${why} (${code ?? "no error code"})`, p);
}

/** The line an editor sees for a file that leads outside the folder: the link's name only. */
export function outsideProblem(file: string): string {
  return problem(
    file,
    "(file)",
    "is a symbolic link to something outside the content folder, which is never read; put the file itself here",
    path.basename(file),
  );
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return "a named pipe";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isDirectory()) return "a folder";
  return "not a regular file";
}

function specialProblem(file: string, kind: string): string {
  return problem(file, "(file)", `is ${kind}, not a file; content files must be plain files`, path.basename(file));
}

const isInside = (root: ContentRoot, real: string) => real === root.real || real.startsWith(root.real + path.sep);

/** Where `p` resolves to, when that is inside the content folder (the folder itself included). */
export function realPathInside(root: ContentRoot, p: string): string | undefined {
  const real = realpathSync.native(p);
  return isInside(root, real) ? real : undefined;
}

/**
 * The UTF-8 text of `p`, a path under the content folder; `file` is how problems name it.
 * Throws a ContentError with one problem when it cannot or must not be read.
 */
export function readContentFile(root: ContentRoot, p: string, file: string): string {
  let real: string;
  try {
    real = realpathSync.native(p);
  } catch (err) {
    throw new ContentError([unreadableProblem(file, (err as NodeJS.ErrnoException).code, p)]);
  }
  if (!isInside(root, real)) throw new ContentError([outsideProblem(file)]);
  return readResolvedFile(real, p, file);
}

/**
 * The text of `real`, a path already resolved and found inside the content folder (`readContentFile`,
 * or a plain file listed in a folder resolved once: content-dir.ts).
 */
export function readResolvedFile(real: string, p: string, file: string): string {
  // The resolved path, never followed again (O_NOFOLLOW: swapped for a link since, it fails), and
  // without blocking (O_NONBLOCK: a named pipe opens at once); fstat then tells what was opened,
  // before a byte is read.
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A socket cannot be opened at all.
    if (code === "ENXIO") throw new ContentError([specialProblem(file, "a socket")]);
    throw new ContentError([unreadableProblem(file, code, p)]);
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw new ContentError([specialProblem(file, kindOf(opened))]);
    return decodeUtf8(readFileSync(fd), file, p);
  } finally {
    closeSync(fd);
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
// A name keeps a leading U+FEFF: it is part of the name, not a byte-order mark.
const NAME_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A name listed in a folder, as bytes: `name` as readdir would give it (invalid bytes read as
 * U+FFFD), and `escaped` (each invalid byte as `\xNN`) when it is not UTF-8. Such a name cannot be
 * opened by its decoded string, so it is named, never read.
 */
export function listedName(bytes: Uint8Array): { name: string; escaped?: string } {
  try {
    return { name: NAME_UTF8.decode(bytes) };
  } catch {
    const name = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
    let escaped = "";
    for (let i = 0; i < bytes.length; ) {
      const n = validSequenceAt(bytes, i);
      escaped +=
        n > 0 ? NAME_UTF8.decode(bytes.subarray(i, i + n)) : `\\x${(bytes[i] as number).toString(16).padStart(2, "0")}`;
      i += Math.max(n, 1);
    }
    return { name, escaped };
  }
}

/** The problem of a file whose name is not UTF-8: named as `ls` shows it, and byte by byte. */
export function nameProblem(file: string, escaped: string): string {
  return `${messageStart(file)}(file): the file name is not valid UTF-8 (byte by byte: ${escaped}) — rename the file: a review's file name is its id, written with a-z, 0-9 and hyphens`;
}

/**
 * The file's text, which must be UTF-8: a lenient decode would publish "M\uFFFDller" for a file
 * saved as Latin-1 ("ANSI") and log it so. A leading byte-order mark, which some editors write, is
 * dropped (TextDecoder does so).
 */
function decodeUtf8(bytes: Buffer, file: string, p: string): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    const line = bytes.subarray(0, firstInvalidByte(bytes)).toString("latin1").split("\n").length;
    throw new ContentError([
      problem(
        file,
        "(file)",
        "is not UTF-8 text (saved in another encoding, such as Latin-1 or Windows-1252?): save it as UTF-8",
        path.basename(p),
        line,
      ),
    ]);
  }
}

/** Where the first byte sequence that is not UTF-8 starts. */
function firstInvalidByte(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const n = validSequenceAt(b, i);
    if (n === 0) return i;
    i += n;
  }
  return b.length;
}

/** The length of the UTF-8 sequence at `i`, 0 when it is not one (the strict decoder judges each one). */
function validSequenceAt(b: Uint8Array, i: number): number {
  const c = b[i] as number;
  const n = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
  if (n <= 1) return n;
  try {
    UTF8.decode(b.subarray(i, i + n));
    return n;
  } catch {
    return 0;
  }
}
