export * from './money.js';
export * from './countries.js';
export * from './kyc-wizard.js';
export * from './trading.js';
export * from './capital-gains.js';
export * from './customer-state.js';
