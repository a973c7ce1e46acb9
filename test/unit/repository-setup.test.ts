import { expect } from 'chai';
import { repositorySetup, rpmRepoFile } from '../../shared/packages/repository-setup';

describe('repository setup texts', () => {
  const target = { baseUrl: 'https://dl.example.com', applicationId: 'app-1', applicationName: 'Tool', channel: 'beta' };

  it("names an https host in auth.conf without its scheme (apt matches it to https only) and states any other scheme", () => {
    const https = repositorySetup({ ...target, access: { form: 'basic', customerId: 'cust-1', token: 'bdt_x' } });
    expect(https.apt.auth?.line).to.equal('machine dl.example.com/v1/repos/app-1/apt login cust-1 password bdt_x');
    const http = repositorySetup({ ...target, baseUrl: 'http://127.0.0.1:8080', access: { form: 'basic', customerId: 'cust-1', token: 'bdt_x' } });
    expect(http.apt.auth?.line).to.equal('machine http://127.0.0.1:8080/v1/repos/app-1/apt login cust-1 password bdt_x');
    expect(https.apt.sourceLine).to.equal('deb [signed-by=/etc/apt/keyrings/app-1.gpg] https://dl.example.com/v1/repos/app-1/apt beta main');
  });

  it('puts the token in the path form only, and quotes a placeholder for the shell', () => {
    const placeholder = repositorySetup({ ...target, access: { form: 'path', token: '<access token>' } });
    expect(placeholder.apt.auth).to.equal(null);
    expect(placeholder.apt.keyCommand).to.equal("curl -fsSL 'https://dl.example.com/t/<access token>/v1/repos/app-1/apt/key.asc' | sudo gpg --dearmor --yes -o /etc/apt/keyrings/app-1.gpg");
    expect(placeholder.rpm.repoFileUrl).to.equal('https://dl.example.com/t/<access token>/v1/repos/app-1/rpm/beta/app-1.repo');
    expect(placeholder.rpm.repoFile).not.to.include('username=');
  });

  it('fills the .repo credentials in the HTTP Basic form, or leaves them blank for the customer', () => {
    const filled = repositorySetup({ ...target, access: { form: 'basic', customerId: 'cust-1', token: 'bdt_x' } }).rpm.repoFile;
    expect(filled).to.include('\nusername=cust-1\npassword=bdt_x\n').and.to.include('\ngpgkey=https://dl.example.com/v1/repos/app-1/rpm/key.asc\n');
    const blank = rpmRepoFile({ applicationId: 'app-1', channel: 'beta', name: 'Tool\nX', base: 'https://dl.example.com/v1/repos/app-1/rpm', credentials: 'blank' });
    expect(blank).to.include('name=Tool X (beta)').and.to.include('\nusername=\npassword=\n');
  });
});
