/**
 * The setup a customer pastes to use an application's apt and rpm repositories: the key, the
 * sources line (one-line and deb822), apt's auth.conf line, the dnf `.repo` file. One builder for the
 * portal, `bds repos` and the `.repo` file the service answers, so the three never disagree.
 */

/** How the customer's requests carry their access: a token in the URL, or HTTP Basic (customer id and an access token). */
export type RepositoryAccess =
  | { form: 'path'; token: string }
  | { form: 'basic'; customerId: string; token: string };

export interface RepositorySetupTarget {
  /** The service's public base URL, without a trailing slash. */
  baseUrl: string;
  applicationId: string;
  /** The application's name as people read it (the `.repo` file's `name=`). */
  applicationName: string;
  channel: string;
  access: RepositoryAccess;
}

export interface AptSetup {
  /** The repository's URL as apt names it (with `/t/{token}` in the path form). */
  url: string;
  keyring: string;
  /** Fetches the key and writes the keyring `signed-by` names. */
  keyCommand: string;
  /** The one-line `sources.list` entry and the file it goes in. */
  sourceLine: string;
  sourceFile: string;
  /** The same source as a deb822 `.sources` file, and the file it goes in. */
  deb822: string;
  deb822File: string;
  /** The `auth.conf.d` line (HTTP Basic form only) and the file it goes in. */
  auth: { line: string; file: string } | null;
  /** Everything above as shell commands, in order. */
  script: string;
}

export interface RpmSetup {
  /** The URL the service answers the `.repo` file at (its links carry the path token in the path form). */
  repoFileUrl: string;
  repoFilePath: string;
  /** The `.repo` file's contents, filled in for this customer. */
  repoFile: string;
  /** Writes the `.repo` file. */
  script: string;
}

export interface RepositorySetup {
  apt: AptSetup;
  rpm: RpmSetup;
}

/** The repositories' paths under the service's base. */
export function repositoryPaths(applicationId: string): { apt: string; rpm: string } {
  return { apt: `/v1/repos/${applicationId}/apt`, rpm: `/v1/repos/${applicationId}/rpm` };
}

/** A word the shell reads as itself: quoted unless it is made of plainly safe characters. */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** apt's `machine` of auth.conf: without a scheme it matches https only, so any other scheme is stated. */
function authMachine(url: string): string {
  return url.startsWith('https://') ? url.slice('https://'.length) : url;
}

/** A file name part from an application id (ids are already path-safe; this keeps it so). */
const fileStem = (applicationId: string): string => applicationId.replace(/[^A-Za-z0-9_.-]/g, '-');

export function repositorySetup(target: RepositorySetupTarget): RepositorySetup {
  const paths = repositoryPaths(target.applicationId);
  const prefix = target.access.form === 'path' ? `${target.baseUrl}/t/${target.access.token}` : target.baseUrl;
  const stem = fileStem(target.applicationId);
  return { apt: aptSetup(target, `${prefix}${paths.apt}`, `${target.baseUrl}${paths.apt}`, stem), rpm: rpmSetup(target, `${prefix}${paths.rpm}`, stem) };
}

function aptSetup(target: RepositorySetupTarget, url: string, plainUrl: string, stem: string): AptSetup {
  const { access, channel } = target;
  const keyring = `/etc/apt/keyrings/${stem}.gpg`;
  const credentials = access.form === 'basic' ? ` -u ${shellWord(`${access.customerId}:${access.token}`)}` : '';
  const keyCommand = `curl -fsSL${credentials} ${shellWord(`${url}/key.asc`)} | sudo gpg --dearmor --yes -o ${keyring}`;
  const sourceLine = `deb [signed-by=${keyring}] ${url} ${channel} main`;
  const sourceFile = `/etc/apt/sources.list.d/${stem}.list`;
  const deb822 = ['Types: deb', `URIs: ${url}`, `Suites: ${channel}`, 'Components: main', `Signed-By: ${keyring}`, ''].join('\n');
  const deb822File = `/etc/apt/sources.list.d/${stem}.sources`;
  const auth = access.form === 'basic'
    ? { line: `machine ${authMachine(plainUrl)} login ${access.customerId} password ${access.token}`, file: `/etc/apt/auth.conf.d/${stem}.conf` }
    : null;
  const script = [
    'sudo install -d -m 0755 /etc/apt/keyrings',
    keyCommand,
    `echo ${shellWord(sourceLine)} | sudo tee ${sourceFile} > /dev/null`,
    ...(auth ? [`echo ${shellWord(auth.line)} | sudo tee ${auth.file} > /dev/null`, `sudo chmod 600 ${auth.file}`] : []),
    'sudo apt-get update',
  ].join('\n');
  return { url, keyring, keyCommand, sourceLine, sourceFile, deb822, deb822File, auth, script };
}

function rpmSetup(target: RepositorySetupTarget, base: string, stem: string): RpmSetup {
  const repoFileUrl = `${base}/${target.channel}/${target.applicationId}.repo`;
  const repoFilePath = `/etc/yum.repos.d/${stem}.repo`;
  const credentials = target.access.form === 'basic' ? { username: target.access.customerId, password: target.access.token } : null;
  const repoFile = rpmRepoFile({ applicationId: target.applicationId, channel: target.channel, name: target.applicationName, base, credentials });
  const script = [`sudo tee ${repoFilePath} > /dev/null <<'EOF'`, repoFile.trimEnd(), 'EOF', 'sudo dnf makecache'].join('\n');
  return { repoFileUrl, repoFilePath, repoFile, script };
}

/**
 * A dnf/yum `.repo` section: signed metadata (repo_gpgcheck) and packages (gpgcheck) under the
 * repository's key. `credentials`: HTTP Basic's customer id and access token; `'blank'` leaves the
 * two lines for the customer to fill in; null when the links carry a path token.
 */
export function rpmRepoFile(repo: {
  applicationId: string; channel: string; name: string; base: string;
  credentials: { username: string; password: string } | 'blank' | null;
}): string {
  const { credentials } = repo;
  return [
    `[${repo.applicationId}-${repo.channel}]`,
    `name=${repo.name.replace(/[\r\n]/g, ' ')} (${repo.channel})`,
    `baseurl=${repo.base}/${repo.channel}`,
    'enabled=1',
    'gpgcheck=1',
    'repo_gpgcheck=1',
    `gpgkey=${repo.base}/key.asc`,
    ...(credentials === 'blank' ? ['# HTTP Basic: your customer id and an access token', 'username=', 'password=']
      : credentials ? [`username=${credentials.username}`, `password=${credentials.password}`] : []),
    '',
  ].join('\n');
}
