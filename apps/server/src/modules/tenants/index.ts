export { plans, tenants } from './tenants.tables.js';
