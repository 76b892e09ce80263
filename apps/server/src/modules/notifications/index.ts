export { notifications } from './notifications.tables.js';
