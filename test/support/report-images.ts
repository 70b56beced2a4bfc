import { randomUUID } from 'node:crypto';
import { createCanvas } from '@napi-rs/canvas';

/** A small PNG no other test has (a random UUID written on it): its blob is the test's own. */
export function uniquePngBytes(): Buffer {
  const canvas = createCanvas(240, 80);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 240, 80);
  ctx.fillStyle = '#000000';
  ctx.font = '14px sans-serif';
  ctx.fillText(randomUUID(), 4, 40);
  return canvas.toBuffer('image/png');
}
