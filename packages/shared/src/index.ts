export * from './constants.js';
export * from './contacts.js';
export * from './errors.js';
export * from './realtime.js';
export * from './schemas.js';
export * from './settings.js';
export * from './tax-id.js';
