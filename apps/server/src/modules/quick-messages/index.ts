export { quickMessages } from './quick-messages.tables.js';
