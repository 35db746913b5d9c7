import type { APIRoute } from "astro";
import { faviconIco } from "../site/favicon.ts";

export const prerender = true;

export const GET: APIRoute = () => new Response(faviconIco(), { headers: { "Content-Type": "image/x-icon" } });
