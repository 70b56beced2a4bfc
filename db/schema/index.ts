export * from './teams.js';
export * from './users.js';
