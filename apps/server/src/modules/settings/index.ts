export { settings } from './settings.tables.js';
export { insertDefaultSettings } from './settings.repository.js';
