import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import fs from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a .br and a .gz beside every text file of the build, once, at build
 * time; the server sends the one the browser accepts (@fastify/static
 * preCompressed), so no request pays for compression.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'florin-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = [...Object.keys(bundle), 'index.html'].filter((file) =>
        /\.(js|css|html|svg|json)$/.test(file),
      );
      await Promise.all(
        [...new Set(files)].map(async (file) => {
          const source = await fs.readFile(path.join(outDir, file));
          if (source.length < 1024) return;
          await fs.writeFile(
            path.join(outDir, `${file}.br`),
            await brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
          await fs.writeFile(path.join(outDir, `${file}.gz`), await gzipAsync(source, { level: 9 }));
        }),
      );
    },
  };
}

/** Where `npm run dev -w @florin/server` listens; the dev server forwards the API, the websocket and the dev mailbox to it. */
const API_SERVER = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    proxy: {
      '/api': { target: API_SERVER, changeOrigin: false },
      '/ws': { target: API_SERVER, ws: true },
      '/dev/': { target: API_SERVER },
      '/crypto/': { target: API_SERVER },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // The libraries every page needs get chunks of their own, so a release that changes only our code
        // leaves them cached. Everything else stays with automatic splitting, so a library one lazy page
        // uses (charts, later) is not pulled into the first load.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 20,
            },
            // Dates and dropzone serve the verification wizard alone: they stay in its lazy chunk.
            { name: 'mantine', test: /node_modules[\\/]@mantine[\\/](?!dates|dropzone)/, priority: 10 },
          ],
        },
      },
    },
  },
});
