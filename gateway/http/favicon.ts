/** The service's icon, one small SVG (a box with an arrow down: a download), linked by every page it serves. */
export const FAVICON_PATH = '/favicon.svg';

export const FAVICON_SVG = Buffer.from([
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">',
  '<rect x="2" y="2" width="28" height="28" rx="6" fill="#1a5fb4"/>',
  '<path d="M16 7v12m-6-6 6 6 6-6M9 24h14" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>',
  '</svg>',
].join(''));
