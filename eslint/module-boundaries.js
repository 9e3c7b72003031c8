import fs from 'node:fs';
import path from 'node:path';

/**
 * The server's module boundaries (issue 42): a module reaches another only
 * through its service.ts (types may come from any of its files), and the
 * folder-level graph of apps/server/src/modules stays acyclic, type imports
 * included. import-x/no-cycle sees files, not folders, and no-restricted-paths
 * cannot tell a type import from a value import, hence this small rule.
 */

const MODULES = path.resolve('apps/server/src/modules');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.[^'"]+)['"]/g;

const isTestSupport = (file) => /\.test\.tsx?$|\.test-kit\.ts$|[\\/]test[\\/]/.test(file);

function moduleOf(file) {
  const relative = path.relative(MODULES, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? null : relative.split(path.sep)[0];
}

function targetOf(file, specifier) {
  return path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts');
}

function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(file);
    else if (entry.name.endsWith('.ts') && !isTestSupport(file)) yield file;
  }
}

/** Module → the modules its files import (types too), read from disk once per lint run. */
let graph;
function moduleGraph() {
  if (graph) return graph;
  graph = new Map();
  for (const file of sourceFiles(MODULES)) {
    const from = moduleOf(file);
    for (const [, specifier] of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = moduleOf(targetOf(file, specifier));
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from).add(to);
    }
  }
  return graph;
}

/** A path of modules from `start` back to `goal`, or null. */
function pathBetween(start, goal) {
  const edges = moduleGraph();
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === goal) {
      const route = [];
      for (let step = current; step !== null; step = previous.get(step)) route.unshift(step);
      return route;
    }
    for (const next of edges.get(current) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, current);
        queue.push(next);
      }
    }
  }
  return null;
}

function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return (
    specifiers.length > 0 &&
    specifiers.every((specifier) => specifier.importKind === 'type' || specifier.exportKind === 'type')
  );
}

const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Modules reach each other only through service.ts, with no folder-level cycle.' },
    schema: [],
    messages: {
      throughService:
        "Import modules/{{to}} through its service.ts (or import only its types): '{{specifier}}' reaches inside it.",
      cycle: 'modules/{{from}} → modules/{{to}} closes a cycle of modules: {{route}}.',
    },
  },
  create(context) {
    const file = context.filename;
    const from = moduleOf(file);
    if (!from || isTestSupport(file)) return {};
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = targetOf(file, specifier);
      const to = moduleOf(target);
      if (!to || to === from) return;
      if (!isTypeOnly(node) && path.basename(target) !== 'service.ts')
        context.report({ node, messageId: 'throughService', data: { to, specifier } });
      const route = pathBetween(to, from);
      if (route)
        context.report({ node, messageId: 'cycle', data: { from, to, route: [from, ...route].join(' → ') } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

export const florinPlugin = { rules: { 'module-boundaries': moduleBoundaries } };
