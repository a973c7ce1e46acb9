/**
 * Where bytes live in object storage. Published files have their own key; large uploads land on a
 * staging key first and are moved to the file's key before they are hashed, so a second PUT to a
 * still-valid upload URL can never change a published file.
 */
export const fileStorageKey = (applicationId: string, fileId: string): string => `files/${applicationId}/${fileId}`;
export const STAGING_DIRECTORY = 'staging';
export const stagingStorageKey = (uploadId: string): string => `${STAGING_DIRECTORY}/${uploadId}`;
