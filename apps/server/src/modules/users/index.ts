export { users, userTenants } from './users.tables.js';
