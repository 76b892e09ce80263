export { teams, teamUsers } from './teams.tables.js';
