import type { RequestHandler } from "express";
import helmet from "helmet";
import { CSP_DIRECTIVES, PERMISSIONS_POLICY } from "../../src/http-headers/security.ts";

/**
 * The security headers of src/http-headers/security.ts, sent on every response through helmet (the
 * Express ecosystem's maintained implementation). Helmet's other defaults are switched off so the
 * server sends exactly what `dist/_headers` tells a CDN to send: HSTS belongs to whoever
 * terminates TLS, and the legacy headers (X-XSS-Protection, X-DNS-Prefetch-Control…) add nothing
 * for a read-only site. Helmet has no Permissions-Policy, so that one is set here.
 */
export function securityHeaders(): RequestHandler {
  const viaHelmet = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: "same-origin" },
    crossOriginResourcePolicy: { policy: "cross-origin" },
    originAgentCluster: false,
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: false,
    xContentTypeOptions: true,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: "deny" },
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  });
  return (req, res, next) => {
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    viaHelmet(req, res, next);
  };
}
