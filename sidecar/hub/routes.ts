import express, { type ErrorRequestHandler, type Request, type Response, Router } from "express";
import type { Logger } from "pino";
import { echoedText } from "../../src/api/echoed-values.ts";
import { hubErrorBody, hubRefusal, parseHubRequest, undecodableParameter } from "../../src/api/hub-request.ts";
import { ijsonValue } from "../../src/content/characters.ts";
import type { QueryIssue } from "../../src/search/query.ts";
import {
  REQUEST_BODY_CODINGS,
  undecodedCoding,
  unsupportedCoding,
  utf8CharsetLabels,
  xGzipAsGzip,
} from "../body-codings.ts";
import { perIpRateLimit } from "../rate-limit.ts";
import type { Hub } from "./hub.ts";

export interface HubRouterOptions {
  /** Requests per minute per client IP (`HUB_RATE_LIMIT_PER_MINUTE`). */
  rateLimitPerMinute: number;
  /** Client addresses from `req.ip` (trusted proxies) rather than the socket; default false. */
  trustProxy?: boolean;
  logger: Logger;
  /** Largest accepted form body. Default "16kb": a callback is at most 2 KiB and a secret < 200 bytes. */
  bodyLimit?: string;
  /**
   * Accepts a publish ping: the 202 is sent once this resolves, a 503 when it rejects. The
   * sidecar's resolves once the ping is recorded in PostgreSQL (with DATABASE_URL, so any instance
   * completes it), or at once (without: this process completes it afterwards).
   */
  publish: (topics: string[]) => Promise<void>;
  /** Retry-After of the 503 answered while the shared database is down. Default 30. */
  retryAfterSeconds?: number;
}

const FORM = "application/x-www-form-urlencoded";
/** Parameters a form body may have; the hub reads six. */
const MAX_PARAMETERS = 64;

/** The 415 of a form body in another charset than UTF-8, whichever part of the parser finds it. */
function charsetRefusal(charset: string): string {
  return `The hub reads ${FORM} bodies as UTF-8 only, got charset ${echoedText(charset)}.`;
}

function text(res: Response, status: number, body: string): void {
  res
    .status(status)
    .type("text/plain; charset=utf-8")
    .send(body.endsWith("\n") ? body : `${body}\n`);
}

/**
 * A refusal: plain text, as WebSub asks (§5.1.2: "a description of the error in the response body
 * as plain text"), or the REST API's error body `{error, message, issues}` for a client that prefers
 * JSON (`Accept`), a 400's issue naming the parameter and the value received.
 */
function refuse(req: Request, res: Response, status: number, reason: string, issues?: readonly QueryIssue[]): void {
  res.vary("Accept");
  // An Accept entry with a parameter matches only an offer with the same one (negotiator).
  const type = req.accepts(["text/plain", "application/json", "application/json; charset=utf-8"]);
  if (typeof type === "string" && type.startsWith("application/json")) {
    res.status(status).json(ijsonValue(hubErrorBody(status, reason, issues)));
  } else text(res, status, reason);
}

/**
 * `POST /` of the hub, to be mounted at `/api/websub/hub`. Answers 202 for a valid subscribe,
 * unsubscribe or publish once it is recorded (verification and delivery happen afterwards), 4xx with a
 * reason otherwise (`refuse`): 415 for anything but a form body, 429 with Retry-After past the per-IP limit.
 */
export function createHubRouter(hub: Hub, opts: HubRouterOptions): Router {
  const router = Router();
  const limiter = perIpRateLimit({
    limitPerMinute: opts.rateLimitPerMinute,
    trustProxy: opts.trustProxy ?? false,
    onLimit: (req, res) => {
      refuse(req, res, 429, `Too many hub requests: the limit is ${opts.rateLimitPerMinute} per minute per client.`);
    },
  });
  /** Seconds a client should wait while the shared database is unreachable. */
  const retryAfter = String(opts.retryAfterSeconds ?? 30);
  const unavailable = (req: Request, res: Response) => {
    res.setHeader("Retry-After", retryAfter);
    refuse(req, res, 503, "The hub's database is unreachable; try again later.");
  };
  const form = express.urlencoded({
    extended: false,
    limit: opts.bodyLimit ?? "16kb",
    parameterLimit: MAX_PARAMETERS,
    // The parser keeps a value that does not percent-decode as its literal text: refused instead (400).
    verify: (_req, _res, body, encoding) => {
      // WHATWG URL: a form body is UTF-8, whatever its charset says; read as Latin-1, %FF%FE in a
      // secret became "ÿþ", whose UTF-8 bytes a subscriber signing with FF FE never matches.
      if (encoding !== "utf-8") {
        throw Object.assign(new Error(charsetRefusal(encoding)), { status: 415, type: "hub.charset" });
      }
      const bad = undecodableParameter(body.toString("latin1"));
      if (bad) throw Object.assign(new Error(bad.reason), { status: 400, type: "hub.undecodable", issues: bad.issues });
    },
  });

  // Every method of the hub's path: the app-wide limiter skips it, so what this one skips nobody counts.
  router.all("/", limiter);
  router.post(
    "/",
    (req, res, next) => {
      if (req.is(FORM)) {
        next();
        return;
      }
      const got = echoedText(req.headers["content-type"] ?? "no Content-Type");
      refuse(req, res, 415, `The hub accepts ${FORM} bodies only, got ${got}.`);
    },
    xGzipAsGzip,
    utf8CharsetLabels,
    form,
    async (req, res) => {
      const parsed = parseHubRequest(req.body, {
        topics: hub.topics,
        topicOf: (raw) => hub.topicOf(raw),
        callbackRefusal: (callback) => hub.callbackRefusal(callback),
      });
      if (!parsed.ok) {
        refuse(req, res, 400, parsed.reason, parsed.issues);
        return;
      }
      if (!(await hub.reachable())) {
        unavailable(req, res);
        return;
      }
      const r = parsed.request;
      if (r["hub.mode"] !== "publish") {
        const answer = await hub.request(r).catch((err: unknown) => {
          opts.logger.error({ err }, "hub request failed");
          return undefined;
        });
        if (!answer) {
          unavailable(req, res);
          return;
        }
        if (answer.accepted) {
          text(res, 202, `Accepted: verification of intent for ${r["hub.mode"]} will follow.`);
          return;
        }
        if (answer.status === 503 && answer.retryAfterSeconds !== undefined) {
          res.setHeader("Retry-After", String(answer.retryAfterSeconds));
        }
        refuse(req, res, answer.status, answer.reason, answer.status === 400 ? [answer.issue] : undefined);
        return;
      }
      // parseHubRequest refused a URL naming no topic; a publish may name its topics with either field.
      const topics = new Set(
        [r["hub.url"] ?? [], r["hub.topic"] ?? []].flat().flatMap((raw) => hub.topicOf(raw) ?? []),
      );
      if (!hub.running) {
        refuse(req, res, 503, "the hub is not running");
        return;
      }
      try {
        await opts.publish([...topics]);
      } catch (err) {
        opts.logger.error({ err }, "the publish ping could not be recorded; answering 503");
        unavailable(req, res);
        return;
      }
      text(res, 202, "Accepted: changed topics will be distributed.");
    },
  );
  // A plain OPTIONS (a CORS preflight is answered before the router) learns the same Allow.
  router.all("/", (req, res) => {
    res.setHeader("Allow", "POST, OPTIONS");
    if (req.method === "OPTIONS") res.status(204).end();
    else refuse(req, res, 405, "The hub accepts POST only.");
  });

  // Body-parser errors (too large, bad charset, malformed) become refusals here.
  const onError: ErrorRequestHandler = (err, req, res, next) => {
    const status = typeof err?.status === "number" ? err.status : 500;
    if (status >= 500 || res.headersSent) {
      next(err);
      return;
    }
    // RFC 9110 §12.5.3: a 415 for a content coding says which codings are accepted.
    if (err.type === "encoding.unsupported") res.setHeader("Accept-Encoding", REQUEST_BODY_CODINGS);
    const coding = undecodedCoding(err, req);
    if (coding !== undefined) {
      const { reason, issue } = hubRefusal(
        "Content-Encoding",
        "the request body does not decode as this coding",
        coding,
      );
      refuse(req, res, 400, reason, [issue]);
      return;
    }
    // The parser refuses what it cannot decode (all but UTF-8 and ISO-8859-1) before `verify` runs.
    const reason =
      err.type === "charset.unsupported"
        ? charsetRefusal(String(err.charset))
        : err.type === "entity.too.large"
          ? `The request body is larger than ${opts.bodyLimit ?? "16kb"}.`
          : err.type === "parameters.too.many"
            ? `The request body has more than ${MAX_PARAMETERS} parameters.`
            : err.type === "encoding.unsupported"
              ? unsupportedCoding(err)
              : String(err.message);
    refuse(
      req,
      res,
      status,
      reason,
      err.issues ?? [{ path: "(request)", value: req.headers["content-type"] ?? null, message: reason }],
    );
  };
  router.use(onError);
  return router;
}
