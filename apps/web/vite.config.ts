import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run dev -w @florin/server` listens; the dev server forwards the API, the websocket and the dev mailbox to it. */
const API_SERVER = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
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
