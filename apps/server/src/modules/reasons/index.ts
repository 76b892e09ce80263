export { reasons } from './reasons.tables.js';
