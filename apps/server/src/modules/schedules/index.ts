export { scheduledMessages } from './schedules.tables.js';
