import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Secrets } from '../../application/ports/secrets.port.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export class NodeCryptoSecrets implements Secrets {
  randomBase62(length: number): string {
    let out = '';
    // randomInt draws without modulo bias from the CSPRNG.
    for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
    return out;
  }

  sha256(text: string): string {
    return createHash('sha256').update(text, 'utf8').digest('hex');
  }

  hashesEqual(a: string, b: string): boolean {
    const left = Buffer.from(a, 'utf8');
    const right = Buffer.from(b, 'utf8');
    return left.length === right.length && timingSafeEqual(left, right);
  }
}
