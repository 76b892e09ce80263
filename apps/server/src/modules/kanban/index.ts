export { kanbanLanes } from './kanban.tables.js';
