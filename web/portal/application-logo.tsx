import { useEffect, useState } from 'preact/hooks';
import { bearerOf, type Credential } from './credential';

/**
 * An application's logo beside its name. The portal's credential travels as a bearer header, which
 * an <img src> cannot send: the image is fetched with it and shown through a blob: URL, revoked when
 * the card goes or the logo changes. Nothing is shown while it loads, or when it cannot be read.
 */
export function ApplicationLogo({ credential, applicationId, name }: { credential: Credential; applicationId: string; name: string }) {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    void fetch(`/v1/downloads/applications/${encodeURIComponent(applicationId)}/logo`, {
      headers: { Authorization: `Bearer ${bearerOf(credential)}` },
      signal: controller.signal,
    }).then(async (response) => {
      if (!response.ok) return;
      const image = await response.blob();
      if (controller.signal.aborted) return;
      objectUrl = URL.createObjectURL(image);
      setSource(objectUrl);
    }).catch(() => undefined);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [applicationId, credential]);
  return source ? <img src={source} alt={name} width={48} height={48} /> : null;
}
