export * from './teams.js';
export * from './users.js';
export * from './catalog.js';
export * from './orders.js';
export * from './events.js';
export * from './accounts.js';
export * from './webhooks.js';
export * from './lab-reports.js';
