import { useEffect, useState } from 'preact/hooks';

/**
 * An image of the API (an application's logo) shown with the tab's credential. The apps send it as a
 * bearer header, which an <img src> cannot: the image is fetched with it and shown through a blob:
 * URL, revoked when the image goes or changes. Nothing is shown while it loads, or when it cannot be
 * read. `version` (the logo's SHA-256) fetches it again when it changes.
 */
export function AuthorizedImage({ path, bearer, alt, version, size = 48 }: { path: string; bearer: string | null; alt: string; version?: string; size?: number }) {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    void fetch(path, { headers: bearer ? { Authorization: `Bearer ${bearer}` } : {}, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) return;
        const image = await response.blob();
        if (controller.signal.aborted) return;
        objectUrl = URL.createObjectURL(image);
        setSource(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      setSource(null);
    };
  }, [path, bearer, version]);
  return source ? <img src={source} alt={alt} width={size} height={size} /> : null;
}
