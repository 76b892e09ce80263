export * from './chatbot.tables.js';
