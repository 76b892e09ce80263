export { ticketProtocols } from './protocols.tables.js';
