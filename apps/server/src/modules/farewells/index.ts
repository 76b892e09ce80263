export { farewellMessages } from './farewells.tables.js';
