export { ticketEvaluations } from './evaluations.tables.js';
