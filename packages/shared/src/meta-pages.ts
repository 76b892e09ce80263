/** Issue 15: wire shapes of meta-pages (filled by its helper). */
export {};
