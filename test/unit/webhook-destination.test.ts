import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { DestinationRefusedError, resolveDestination, type Resolver } from '../../shared/webhooks/destination';
import { destinationUrlProblem } from '../../shared/webhooks/destination-rules';
import { postWebhook } from '../../shared/webhooks/http-delivery';
import { sendMessage } from '../../shared/webhooks/send-message';
import { generateSigningSecret, signedHeaders } from '../../shared/webhooks/signature';
import { rejectionOf } from '../support/rejection';
import { WebhookReceiver } from '../support/webhook-receiver';

/** A resolver answering from a table, as a DNS server an attacker controls could. */
const answering = (table: Record<string, string[]>): Resolver => async (hostname) => {
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('webhook destinations', () => {
  describe('URLs', () => {
    it('takes https to public hosts, and http only to a host the allow-list names', () => {
      expect(destinationUrlProblem('https://hooks.example.com/in', [])).to.equal(null);
      expect(destinationUrlProblem('https://8.8.8.8/in', [])).to.equal(null);
      expect(destinationUrlProblem('http://hooks.example.com/in', [])).to.match(/https/);
      expect(destinationUrlProblem('http://hooks.example.com/in', ['hooks.example.com'])).to.equal(null);
      expect(destinationUrlProblem('http://127.0.0.1:9000/in', ['127.0.0.1'])).to.equal(null);
      expect(destinationUrlProblem('http://[::1]:9000/in', ['::1'])).to.equal(null);
    });

    it('refuses private, loopback, link-local and other special addresses written into the URL', () => {
      for (const host of ['127.0.0.1', '10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '[::1]', '[fe80::1]', '[fd00::1]', '[::ffff:10.0.0.1]', '[::]']) {
        expect(destinationUrlProblem(`https://${host}/in`, []), host).to.match(/^must not be a/);
      }
    });
  });

  describe('resolution', () => {
    it('refuses a name with any address outside public unicast, and connects to the address it checked', async () => {
      const resolve = answering({ 'public.test': ['93.184.216.34'], 'mixed.test': ['93.184.216.34', '10.0.0.7'], 'inside.test': ['169.254.169.254'] });
      expect(await resolveDestination('https://public.test/in', [], resolve)).to.deep.include({ address: '93.184.216.34', family: 4 });
      for (const [host, address] of [['mixed.test', '10.0.0.7'], ['inside.test', '169.254.169.254']]) {
        const error = await rejectionOf(resolveDestination(`https://${host}/in`, [], resolve));
        expect(error).to.be.instanceOf(DestinationRefusedError);
        expect((error as Error).message).to.contain(`${host} resolves to ${address}`);
      }
      expect((await rejectionOf(resolveDestination('https://nowhere.test/in', [], resolve)) as Error).message).to.contain('ENOTFOUND');
    });

    it('checks the name again at every attempt, so a name that turns private (DNS rebinding) is refused then', async () => {
      let answers = ['93.184.216.34'];
      const resolve: Resolver = async () => answers.map((address) => ({ address, family: 4 }));
      await resolveDestination('https://rebinding.test/in', [], resolve);
      answers = ['127.0.0.1'];
      expect(await rejectionOf(resolveDestination('https://rebinding.test/in', [], resolve))).to.be.instanceOf(DestinationRefusedError);
    });
  });

  describe('sending', () => {
    let receiver: WebhookReceiver;

    beforeEach(async () => {
      receiver = await WebhookReceiver.start();
    });

    afterEach(async () => {
      await receiver.close();
    });

    it('connects to the checked address while the request still names the host', async () => {
      const resolve = answering({ 'hooks.internal': ['127.0.0.1'] });
      const destination = await resolveDestination(`http://hooks.internal:${receiver.port}/in`, ['hooks.internal'], resolve);
      const answer = await postWebhook(destination, { 'webhook-id': 'msg_1' }, '{}');
      expect(answer.status).to.equal(200);
      expect(receiver.requests[0].headers.host).to.equal(`hooks.internal:${receiver.port}`);
      expect(receiver.requests[0].path).to.equal('/in');
    });

    it('gives up on a receiver that does not answer in time, and reads no more of a body than the cap', async () => {
      const destination = await resolveDestination(receiver.url(), ['127.0.0.1']);
      receiver.answer('hang');
      expect((await rejectionOf(postWebhook(destination, {}, '{}', { timeoutMs: 200 })) as Error).message).to.equal('no answer within 200 ms');
      receiver.answer({ status: 500, body: 'y'.repeat(100_000) });
      expect(await postWebhook(destination, {}, '{}', { maxResponseBytes: 16 })).to.deep.equal({ status: 500, body: 'y'.repeat(16) });
    });

    it('signs so that the standardwebhooks package verifies it, with every secret given', async () => {
      const [current, previous] = [generateSigningSecret(), generateSigningSecret()];
      const body = JSON.stringify({ type: 'customer.created', timestamp: new Date().toISOString(), data: { customerId: 'c1' } });
      const outcome = await sendMessage(receiver.url(), ['127.0.0.1'], [current, previous], 'msg_signed', body);
      expect(outcome).to.deep.equal({ delivered: true, responseStatus: 200, responseBody: '', error: null, refused: false });
      const [request] = receiver.requests;
      for (const secret of [current, previous]) {
        expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).to.deep.equal(JSON.parse(body));
      }
      const headers = signedHeaders([current], 'msg_signed', new Date(), body);
      // A destination the rules refuse is not contacted, and the outcome says so.
      const refused = await sendMessage(receiver.url(), [], [current], 'msg_refused', body);
      expect(refused).to.deep.include({ delivered: false, refused: true, responseStatus: null });
      expect(receiver.requests).to.have.length(1);
      expect(headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]{43}=$/);
    });
  });
});
