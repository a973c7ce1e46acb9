import type { customerApplicationListResponse } from '../../shared/contract/applications';
import type { Wire } from '../common/api';

export type ApplicationList = Wire<typeof customerApplicationListResponse>;
/** An application as the portal's list gives it: what the customer may download, with its branding and licence. */
export type PortalApplication = ApplicationList['applications'][number];
