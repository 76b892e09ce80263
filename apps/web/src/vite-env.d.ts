/// <reference types="vite/client" />

/** The build id, defined by version-plugin.ts. */
declare const __APP_VERSION__: string;

interface ImportMetaEnv {
  /** API base, default same-origin `/api`. */
  readonly VITE_API_URL?: string;
  /** socket.io origin, default the page's origin. */
  readonly VITE_SOCKET_URL?: string;
}
