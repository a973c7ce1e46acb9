import { API_DESCRIPTION_PATH, API_REFERENCE_PATH } from './api-description-routes';

/** Where a person goes first, named once for the landing page (`/`) and the start banner. */
export const ENTRANCES = [
  { path: '/console', what: "the vendor's console: sign in with an admin key" },
  { path: '/portal', what: "the customers' download portal: sign in with a customer key or open a portal link" },
  { path: API_DESCRIPTION_PATH, what: 'the API description (OpenAPI 3.1)' },
  { path: API_REFERENCE_PATH, what: 'the API reference, as a page to read' },
] as const;

/** The lines printed once the service listens: each entrance as a full URL. */
export function startBanner(baseUrl: string): string {
  return ENTRANCES.map((entrance) => `  ${baseUrl}${entrance.path}  ${entrance.what}\n`).join('');
}
