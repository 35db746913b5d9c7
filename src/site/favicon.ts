/**
 * The site icon: a white five-pointed star on the header's teal, drawn from one polygon as SVG
 * (`/favicon.svg`, for browsers that take `<link rel="icon" type="image/svg+xml">`) and as a
 * 32×32 ICO (`/favicon.ico`, which browsers and crawlers request without being told). Generated at
 * build time so the bytes are reproducible and the picture is reviewable as code.
 */

const SIZE = 32;
const TEAL = [0x09, 0x4a, 0x49] as const;
const RADIUS = 6;

/** Star vertices in a 32×32 box, outer and inner points alternating, starting at the top. */
export const STAR: readonly (readonly [number, number])[] = Array.from({ length: 10 }, (_, i) => {
  const r = i % 2 === 0 ? 12.5 : 5.2;
  const a = -Math.PI / 2 + (i * Math.PI) / 5;
  return [Math.round((16 + r * Math.cos(a)) * 100) / 100, Math.round((17 + r * Math.sin(a)) * 100) / 100] as const;
});

export function faviconSvg(): string {
  const points = STAR.map(([x, y]) => `${x},${y}`).join(" ");
  const fill = `#${TEAL.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}"><rect width="${SIZE}" height="${SIZE}" rx="${RADIUS}" fill="${fill}"/><polygon points="${points}" fill="#fff"/></svg>\n`;
}

function inPolygon(x: number, y: number, poly: readonly (readonly [number, number])[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i] as readonly [number, number];
    const [xj, yj] = poly[j] as readonly [number, number];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function inRoundedSquare(x: number, y: number): boolean {
  const cx = Math.min(Math.max(x, RADIUS), SIZE - RADIUS);
  const cy = Math.min(Math.max(y, RADIUS), SIZE - RADIUS);
  return (x - cx) ** 2 + (y - cy) ** 2 <= RADIUS ** 2;
}

/** Pixel (x, y) as [r, g, b, a], anti-aliased by 4×4 supersampling. */
function pixel(x: number, y: number): [number, number, number, number] {
  let square = 0;
  let star = 0;
  for (let sy = 0; sy < 4; sy++) {
    for (let sx = 0; sx < 4; sx++) {
      const px = x + (sx + 0.5) / 4;
      const py = y + (sy + 0.5) / 4;
      if (!inRoundedSquare(px, py)) continue;
      square++;
      if (inPolygon(px, py, STAR)) star++;
    }
  }
  if (square === 0) return [0, 0, 0, 0];
  const white = star / square;
  const mix = (c: number) => Math.round(c * (1 - white) + 255 * white);
  return [mix(TEAL[0]), mix(TEAL[1]), mix(TEAL[2]), Math.round((square / 16) * 255)];
}

/**
 * ICO with one 32×32 32-bit BMP image: ICONDIR, one ICONDIRENTRY, a BITMAPINFOHEADER whose height
 * counts the XOR and AND planes together, BGRA rows bottom-up, then an all-zero AND mask (the
 * alpha channel already says what is transparent).
 */
export function faviconIco(): Uint8Array<ArrayBuffer> {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // 32 px of 1 bit = 4 bytes a row, already 32-bit aligned
  const image = 40 + pixels + mask;
  const buf = Buffer.alloc(6 + 16 + image);
  buf.writeUInt16LE(0, 0);
  buf.writeUInt16LE(1, 2); // type: icon
  buf.writeUInt16LE(1, 4); // one image
  buf.writeUInt8(SIZE, 6);
  buf.writeUInt8(SIZE, 7);
  buf.writeUInt16LE(1, 10); // colour planes
  buf.writeUInt16LE(32, 12); // bits per pixel
  buf.writeUInt32LE(image, 14);
  buf.writeUInt32LE(22, 18); // offset of the image
  const h = 22;
  buf.writeUInt32LE(40, h);
  buf.writeInt32LE(SIZE, h + 4);
  buf.writeInt32LE(SIZE * 2, h + 8);
  buf.writeUInt16LE(1, h + 12);
  buf.writeUInt16LE(32, h + 14);
  buf.writeUInt32LE(pixels + mask, h + 20);
  let o = h + 40;
  for (let y = SIZE - 1; y >= 0; y--) {
    for (let x = 0; x < SIZE; x++) {
      const [r, g, b, a] = pixel(x, y);
      buf[o++] = b;
      buf[o++] = g;
      buf[o++] = r;
      buf[o++] = a;
    }
  }
  return new Uint8Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}
