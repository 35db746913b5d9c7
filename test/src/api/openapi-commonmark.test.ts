import { describe, expect, it } from "vitest";
import { buildOpenApi } from "../../../src/api/openapi.ts";
import { codeSpans } from "../../../src/site/code-spans.ts";
import { openApiInput } from "../../helpers/openapi-input.ts";

/**
 * An OpenAPI description is CommonMark (OpenAPI 3.1 §4.8), and a CommonMark reader takes
 * `<name words…>` outside a code span for an HTML tag (CommonMark 0.31 §6.6): Swagger UI and Redoc
 * would drop it, and the API reference page would show what they hide.
 */
const HTML_TAG =
  /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>/;

function descriptions(value: unknown, key = "", out: string[] = []): string[] {
  if (typeof value === "string" && (key === "description" || key === "summary")) out.push(value);
  else if (Array.isArray(value)) for (const v of value) descriptions(v, key, out);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) descriptions(v, k, out);
  return out;
}

describe("/openapi.json's descriptions as CommonMark", () => {
  it("hold no text a CommonMark reader takes for an HTML tag, outside code spans", async () => {
    const texts = descriptions(buildOpenApi(await openApiInput()));
    expect(texts.length).toBeGreaterThan(100);
    for (const text of texts) {
      const prose = codeSpans(text)
        .filter((p) => !p.code)
        .map((p) => p.text)
        .join("");
      expect(HTML_TAG.exec(prose)?.[0], text).toBeUndefined();
    }
  });
});
