import type { QueryIssue } from "../search/query.ts";
import { HubRequestSchema, hubErrorBody } from "./hub-request.ts";
import { body, rateLimitHeaders, ref, sharedResponses, toJsonSchema } from "./openapi-parts.ts";
import type { PathContext } from "./openapi-paths.ts";

/** A hub refusal's two forms: the plain text, and the API's Error body for a client that asks for JSON. */
function refusal(status: number, message: string, issue?: QueryIssue) {
  return {
    ...body({ type: "string" }, message, "text/plain"),
    // A 400 always names the fields at fault (hub-request.ts); other refusals have no field to name.
    ...body(ref(status === 400 ? "InvalidRequest" : "Error"), hubErrorBody(status, message, issue && [issue])),
  };
}

/**
 * The path items of `/openapi.json` for the service's own endpoints, beside the data's
 * (openapi-paths.ts): the hub, which answers in plain text (or JSON, when asked), and the health checks.
 */
export function servicePaths({ urls, ex }: PathContext): Record<string, unknown> {
  const shared = sharedResponses(ex);
  const { $schema: _h, ...hubSchema } = toJsonSchema(HubRequestSchema, "input");
  // A health answer is about this moment: no cache may keep it.
  const noStore = {
    "Cache-Control": { description: "Never cached.", required: true, schema: { type: "string" }, example: "no-store" },
  };
  // RFC 9110 §13.1.2: `If-None-Match: *` is false whenever there is a representation, so a GET
  // carrying it is a 304 here too; no answer was stored, so there is nothing to reuse.
  const notModified = {
    description: "The request sent `If-None-Match: *` (RFC 9110 §13.1.2). No body; ask without it.",
    headers: noStore,
  };
  // The hub's own quota (HUB_RATE_LIMIT_PER_MINUTE), not the API's: counted on every answer it gives.
  const hubQuota = {
    RateLimit: { ...rateLimitHeaders.RateLimit, example: "limit=30, remaining=29, reset=42" },
    "RateLimit-Policy": { ...rateLimitHeaders["RateLimit-Policy"], example: "30;w=60" },
  };
  return {
    "/api/websub/hub": {
      post: {
        operationId: "postWebSubHub",
        tags: ["websub"],
        summary: "WebSub hub: subscribe, unsubscribe, publish",
        description:
          "W3C WebSub hub for the three topics. Subscriptions need an https callback and are verified asynchronously (GET with hub.challenge). Refused with 400 (the plain-text body names each parameter at fault, joined by semicolons): a callback that is not an absolute https URL of at most 2048 characters without fragment, user info or port 0, or that has characters RFC 3986 does not allow (its path and query are used byte for byte), or that is a private address; a topic of more than 2048 characters, or that is not one of the three; a hub.secret of 200 bytes or more; a topic or secret holding U+0000 (%00); a hub.lease_seconds that is not a whole number in a subscribe (a long or short lease is clamped, not refused; an unsubscribe's is ignored); a publish without hub.url (or hub.topic); a hub parameter whose value does not percent-decode to UTF-8 (%FF; a literal % is %25). 413 past 16 kB or 64 parameters; 415 for anything but a form body; 429 past HUB_RATE_LIMIT_PER_MINUTE (30 by default) per client. Differs from the Recommendation in six ways (docs/websub.md): removal after 3 consecutive failed deliveries (or at once on 410 Gone); retries are short, at most two; HTTPS callbacks only, never at a private address; signatures use sha256 only; only the latest content is sent; publishing is a hub.mode=publish ping for the hub's own topics. Answers are plain text (WebSub §5.1.2); a client whose Accept prefers application/json gets every refusal as the API's Error body instead, a 400's issues naming each parameter at fault, one issue each, and the value received.",
        requestBody: {
          required: true,
          content: body(
            hubSchema,
            {
              "hub.mode": "subscribe",
              "hub.topic": urls.atomFeed,
              "hub.callback": "https://subscriber.example/websub/callback",
            },
            "application/x-www-form-urlencoded",
          ),
        },
        responses: {
          "202": {
            description: "Accepted; verification (or distribution) happens asynchronously.",
            headers: hubQuota,
            content: body(
              { type: "string" },
              "Accepted: verification of intent for subscribe will follow.",
              "text/plain",
            ),
          },
          "400": {
            description: "Invalid request; the body says which fields and why.",
            headers: hubQuota,
            content: refusal(400, 'hub.callback: must be an https URL, got "http://reader.example/cb"', {
              path: "hub.callback",
              value: "http://reader.example/cb",
              message: "must be an https URL",
            }),
          },
          "413": {
            description: "The body is larger than 16 kB or has more than 64 parameters.",
            headers: hubQuota,
            content: refusal(413, "The request body is larger than 16kb."),
          },
          "414": shared.uriTooLong,
          "431": shared.headersTooLarge,
          "415": {
            description: "Not application/x-www-form-urlencoded.",
            headers: hubQuota,
            content: refusal(
              415,
              "The hub accepts application/x-www-form-urlencoded bodies only, got application/json.",
            ),
          },
          "429": {
            description: "Too many hub requests from this client; retry after Retry-After seconds.",
            headers: {
              "Retry-After": { required: true, schema: { type: "integer" }, example: 42 },
              ...hubQuota,
              RateLimit: { ...hubQuota.RateLimit, example: "limit=30, remaining=0, reset=42" },
            },
            content: refusal(429, "Too many hub requests: the limit is 30 per minute per client."),
          },
          "503": {
            description:
              "With DATABASE_URL, the shared database does not answer (with Retry-After); or the hub is not running, or too many verifications are pending (in all, or for callbacks on one host).",
            headers: { "Retry-After": { required: false, schema: { type: "integer" }, example: 30 }, ...hubQuota },
            content: refusal(503, "The hub's database is unreachable; try again later."),
          },
        },
      },
    },
    "/healthz": {
      get: {
        operationId: "getReadiness",
        tags: ["meta"],
        summary: "Readiness",
        description:
          "For load balancers: 200 while this instance can serve everything, 503 when DATABASE_URL is set and the database does not answer. Not rate limited.",
        responses: {
          "200": {
            description: "Serving a dataset; with DATABASE_URL, the shared database answers too.",
            headers: noStore,
            content: body(ref("Readiness"), { status: "ok", ...ex.readiness }),
          },
          "304": notModified,
          "414": shared.uriTooLong,
          "431": shared.headersTooLarge,
          "503": {
            description: "DATABASE_URL is set and the database does not answer: reads still work.",
            headers: noStore,
            content: body(ref("Readiness"), { status: "degraded", database: "unreachable", ...ex.readiness }),
          },
        },
      },
    },
    "/livez": {
      get: {
        operationId: "getLiveness",
        tags: ["meta"],
        summary: "Liveness",
        description:
          "For supervisors: 200 while the process answers HTTP, whatever the database does. Not rate limited.",
        responses: {
          "200": {
            description: "The process answers HTTP.",
            headers: noStore,
            content: body(ref("Liveness"), { status: "ok" }),
          },
          "304": notModified,
          "414": shared.uriTooLong,
          "431": shared.headersTooLarge,
        },
      },
    },
  };
}
