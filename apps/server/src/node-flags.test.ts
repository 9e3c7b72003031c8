import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_OPTIONS } from './node-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe("the server's V8 flags (decision 137)", () => {
  it('are the same wherever the server starts for real: the image, the check of its build and npm start', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    expect(start).toContain(`NODE_OPTIONS=${SERVER_NODE_OPTIONS} tsx apps/server/src/main.ts`);
    expect(read('Dockerfile')).toContain(`NODE_OPTIONS=${SERVER_NODE_OPTIONS} \\`);
    expect(read('scripts/image-build.sh')).toContain(`NODE_OPTIONS=${SERVER_NODE_OPTIONS} PORT=`);
  });
});
