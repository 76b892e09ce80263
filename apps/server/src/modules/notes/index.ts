export { ticketNotes } from './notes.tables.js';
