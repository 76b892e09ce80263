/**
 * Navigation for code outside React (the API client's 401 flow, the socket's invalid-token flow). The router
 * registers its navigate function; before that, the hash is set directly.
 */
type Navigate = (path: string) => void;

let navigator: Navigate = (path) => {
  window.location.hash = `#${path}`;
};

export function setNavigator(navigate: Navigate): void {
  navigator = navigate;
}

export const navigateTo = (path: string): void => navigator(path);
