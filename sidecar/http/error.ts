/**
 * The one error type routes throw. The error middleware turns it into a JSON body
 * `{ error: code, message, ...extra }` with `status`; anything else becomes a logged 500.
 */
export class HttpError extends Error {
  override name = "HttpError";
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    code: string,
    message: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}
