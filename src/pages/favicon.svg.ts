import type { APIRoute } from "astro";
import { faviconSvg } from "../site/favicon.ts";

export const prerender = true;

export const GET: APIRoute = () => new Response(faviconSvg(), { headers: { "Content-Type": "image/svg+xml" } });
