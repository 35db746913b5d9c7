/**
 * Security headers for every response, defined once and sent twice: by the sidecar (through
 * helmet, see sidecar/http/security-headers.ts) and by a CDN (the `/*` rule of `dist/_headers`).
 *
 * The pages show text that customers wrote and run no JavaScript: their one `<script>` is a
 * JSON-LD data block, which a CSP does not treat as script. So the policy allows nothing but the
 * site's own stylesheets and images; if escaping ever failed, injected markup could neither run
 * script, load anything from elsewhere, submit a form, nor frame the page.
 */

/** CSP directives, in the order they are serialised. Values are the source lists, already quoted. */
export const CSP_DIRECTIVES = {
  "default-src": ["'none'"],
  // Astro writes each page's CSS to /_astro/*.css (inlineStylesheets: "never" in astro.config.mjs).
  "style-src": ["'self'"],
  // The favicon; the charts are inline SVG markup, which is not a fetch.
  "img-src": ["'self'"],
  "base-uri": ["'none'"],
  "form-action": ["'none'"],
  "frame-ancestors": ["'none'"],
} as const satisfies Record<string, readonly string[]>;

/** `default-src 'none';style-src 'self';…` exactly as helmet sends it, so both deployments match byte for byte. */
export function cspHeaderValue(directives: Record<string, readonly string[]> = CSP_DIRECTIVES): string {
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join(";");
}

/**
 * Features no page uses, switched off for the page and anything it might embed. Only features
 * current browsers recognise: an unknown one makes Chromium log a console error on every page.
 */
export const PERMISSIONS_POLICY =
  "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()";

/**
 * The headers as name → value, for `_headers` and for tests that compare the two deployments.
 * `Strict-Transport-Security` is deliberately absent: it belongs to whoever terminates TLS (the
 * CDN or reverse proxy), see docs/site.md.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": cspHeaderValue(),
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": PERMISSIONS_POLICY,
  "Cross-Origin-Opener-Policy": "same-origin",
  // The data is public and meant to be read from other origins (CORS is `*`).
  "Cross-Origin-Resource-Policy": "cross-origin",
  "X-Content-Type-Options": "nosniff",
};
