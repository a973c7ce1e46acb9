import type { customerApplicationListResponse } from '../../shared/contract/applications';
import type { callerResponse } from '../../shared/contract/caller';
import type { Wire } from '../common/api';

export type ApplicationList = Wire<typeof customerApplicationListResponse>;
/** An application as the portal's list gives it: what the customer may download, with its branding and licence. */
export type PortalApplication = ApplicationList['applications'][number];

/** The signed-in customer's maintenance window, as `GET /v1/me` gives it. */
export type Maintenance = Extract<Wire<typeof callerResponse>, { kind: 'customer' }>['maintenance'];
