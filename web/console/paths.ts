/** Where the console lives: the base of every page's path, which pages link with and the routes match. */
export const CONSOLE_BASE = '/console';

/** Where the console opens after sign-in, and what `/console` alone shows. */
export const HOME = `${CONSOLE_BASE}/applications`;
