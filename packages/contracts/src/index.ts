export * from './auth.js';
export * from './endpoint.js';
export * from './errors.js';
export * from './health.js';
export * from './money.js';
export * from './pagination.js';
