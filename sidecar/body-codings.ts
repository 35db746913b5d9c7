import zlib from "node:zlib";

/**
 * The content codings of request bodies, shared by the two edges that read one (`/mcp` and the
 * WebSub hub), neither of which goes through the HTTP routes: those body-parser 2 decodes, zstd
 * where Node's zlib has it. A 415 for another names them in `Accept-Encoding` (RFC 9110 §12.5.3).
 */
export const REQUEST_BODY_CODINGS = ["gzip", "deflate", "br", ...("createZstdDecompress" in zlib ? ["zstd"] : [])].join(
  ", ",
);
