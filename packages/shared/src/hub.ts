/** Issue 15: wire shapes of hub (filled by its helper). */
export {};
