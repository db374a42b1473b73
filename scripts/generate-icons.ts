/**
 * Run once when public/favicon.svg changes: `npx tsx scripts/generate-icons.ts`.
 * Writes the PNG app icons the web manifest and iOS need (sharp comes with
 * Astro's image service). The PNGs are committed, so builds need no tool.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';

const svg = readFileSync('public/favicon.svg');
const out = 'public/icons';
// Render the 64-unit SVG at twice the target size before scaling down, for clean edges.
const density = (size: number) => ((72 * size) / 64) * 2;

for (const size of [192, 512]) {
  await sharp(svg, { density: density(size) }).resize(size, size).png({ compressionLevel: 9 }).toFile(`${out}/icon-${size}.png`);
}
// iOS ignores transparency and rounds the corners itself: a full square.
await sharp(svg, { density: density(180) })
  .resize(180, 180)
  .flatten({ background: '#0f766e' })
  .png({ compressionLevel: 9 })
  .toFile(`${out}/apple-touch-icon.png`);
// Maskable: full-bleed theme colour with the cross well inside the central 80 % safe zone.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#0f766e"/><g transform="translate(32 32) scale(0.75) translate(-32 -32)"><path d="M26 14h12v12h12v12H38v12H26V38H14V26h12z" fill="#fff"/></g></svg>`;
await sharp(Buffer.from(maskable), { density: density(512) })
  .resize(512, 512)
  .png({ compressionLevel: 9 })
  .toFile(`${out}/maskable-512.png`);
