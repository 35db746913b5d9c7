import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compress, type Encoded } from "../../../sidecar/http/content-coding.ts";

const DECODE: Record<Encoded, (b: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  zstd: zstdDecompressSync,
};

describe("compress", () => {
  it.each(["zstd", "br", "gzip"] as const)(
    "returns %s bytes in a buffer of their own, which decode to the body",
    (coding) => {
      const body = Buffer.from(JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ id: i, text: `review ${i}` }))));
      for (const profile of ["dynamic", "static"] as const) {
        const coded = compress(body, coding, profile);
        // A kept variant must not pin zlib's output chunk or Node's buffer pool beyond its own bytes.
        expect(coded.buffer.byteLength).toBe(coded.length);
        expect(DECODE[coding](coded).equals(body)).toBe(true);
      }
    },
  );
});
