/** Issue 15: wire shapes of waba (filled by its helper). */
export {};
