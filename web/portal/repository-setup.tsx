import { useState } from 'preact/hooks';
import { repositorySetup, type RepositoryAccess } from '../../shared/packages/repository-setup';
import { CopyButton, SelectField } from '../common/components';
import type { Credential } from './credential';
import type { Release } from './release-view';

const TOKEN_PLACEHOLDER = '<access token>';

/**
 * The setup a customer pastes to install and update an application with apt or dnf: shown when the
 * releases offered to them carry `.deb` or `.rpm` files, for the channel they pick. With a portal
 * link the texts carry its token; with an API key (which apt and dnf cannot send) a placeholder for
 * an access token from the vendor.
 */
export function RepositorySetupPanel({ applicationId, applicationName, credential, customerId, releases }: {
  applicationId: string; applicationName: string; credential: Credential; customerId: string; releases: readonly Release[];
}) {
  const fileNames = releases.flatMap((release) => release.files.map((file) => file.fileName.toLowerCase()));
  const hasDeb = fileNames.some((name) => name.endsWith('.deb'));
  const hasRpm = fileNames.some((name) => name.endsWith('.rpm'));
  const channels = [...new Set(releases.map((release) => release.channel))];
  const [picked, setPicked] = useState<string | null>(null);
  if (!hasDeb && !hasRpm) return null;
  const channel = picked && channels.includes(picked) ? picked : channels.includes('stable') ? 'stable' : channels[0];
  const token = credential.kind === 'token' ? credential.token : TOKEN_PLACEHOLDER;
  const target = { baseUrl: location.origin, applicationId, applicationName, channel };
  const setup = (access: RepositoryAccess) => repositorySetup({ ...target, access });
  const withToken = setup({ form: 'path', token });
  const withLogin = setup({ form: 'basic', customerId, token });
  return (
    <details class="repository-setup">
      <summary>Install and update with apt or dnf</summary>
      {channels.length > 1 && (
        <SelectField label="Channel" value={channel} options={channels.map((name) => ({ value: name, label: name }))}
          onChange={(event) => setPicked((event.currentTarget as HTMLSelectElement).value)} />
      )}
      {credential.kind === 'key' && (
        <p>Package managers sign in with an access token, not your API key: ask your vendor for one and put it where the
          text says <code>{TOKEN_PLACEHOLDER}</code>.</p>
      )}
      {hasDeb && (
        <section aria-labelledby={`apt-${applicationId}`}>
          <h3 id={`apt-${applicationId}`}>Debian, Ubuntu (apt)</h3>
          <SetupText id="apt-path" label="apt setup with the token in the address" text={withToken.apt.script} />
          <p>Or keep the token out of <code>sources.list</code>: your customer id is the login in <code>/etc/apt/auth.conf.d/</code>.</p>
          <SetupText id="apt-basic" label="apt setup with auth.conf" text={withLogin.apt.script} />
          <details>
            <summary>The source as a deb822 file ({withLogin.apt.deb822File})</summary>
            <SetupText id="apt-deb822" label="deb822 source" text={withLogin.apt.deb822} />
          </details>
        </section>
      )}
      {hasRpm && (
        <section aria-labelledby={`rpm-${applicationId}`}>
          <h3 id={`rpm-${applicationId}`}>Fedora, RHEL (dnf)</h3>
          <SetupText id="rpm-repo" label="dnf repository file" text={withToken.rpm.script} />
          <p>Or download the <code>.repo</code> file:</p>
          <SetupText id="rpm-download" label="dnf repository file download"
            text={`sudo curl -fsSL -o ${withToken.rpm.repoFilePath} '${withToken.rpm.repoFileUrl}'`} />
        </section>
      )}
    </details>
  );
}

function SetupText({ id, label, text }: { id: string; label: string; text: string }) {
  return (
    <div class="setup-text">
      <pre class="command" tabIndex={0} aria-label={label} data-setup={id}><code>{text}</code></pre>
      <CopyButton value={text} label={`Copy ${label}`} />
    </div>
  );
}
