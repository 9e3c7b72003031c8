/**
 * The V8 flags the server runs with wherever it starts (decision 137): a young generation of 32 MB a
 * semi-space, twice Node 20's, so a tick's thousands of short-lived rows die young without a scavenge each
 * 16 MB. The image (Dockerfile, scripts/image-build.sh) and `npm start` pass them in NODE_OPTIONS; the
 * benchmarks and main-process.ts start the server with them; node-flags.test.ts keeps all of them the same.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];

/** As NODE_OPTIONS spells them. */
export const SERVER_NODE_OPTIONS = SERVER_NODE_FLAGS.join(' ');
