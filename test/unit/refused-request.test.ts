import { expect } from 'chai';
import { methodOfFirstBytes, refusedRequestMethod } from '../../gateway/http/refused-request';

const first = (text: string, errorAt: number) => {
  const packet = Buffer.from(text, 'latin1');
  return refusedRequestMethod({ packet, errorAt, bytesRead: packet.length });
};

/** Which request of the bytes Node's parser failed on was refused, and whether it was a HEAD. */
describe('refusedRequestMethod', () => {
  it('reads the method of the request whose head holds the failure, or ends where it was found', () => {
    const text = 'HEAD /healthz HTTP/1.7\r\nHost: a\r\n\r\n';
    expect(first(text, 22)).to.equal('HEAD');
    expect(first(text, text.length)).to.equal('HEAD');
    expect(first(`\r\n${text}`, 24)).to.equal('HEAD');
    expect(first(text.replace('HEAD', 'GET'), 21)).to.equal('other');
    expect(first('HEADER / HTTP/1.1\r\n\r\n', 5)).to.equal('other');
  });

  it('skips complete requests before it, with their bodies by Content-Length or in chunks', () => {
    const get = 'GET / HTTP/1.1\r\nHost: a\r\n\r\n';
    const sized = 'POST / HTTP/1.1\r\ncontent-length:  5\r\n\r\nHEAD ';
    const chunked = 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nHEAD \r\n0\r\nT: 1\r\n\r\n';
    for (const earlier of [get, sized, chunked, `${get}${sized}${chunked}`]) {
      expect(first(`${earlier}HEAD / HTTP/1.7\r\n\r\n`, earlier.length + 14), earlier).to.equal('HEAD');
      expect(first(`${earlier}GET / HTTP/1.7\r\n\r\n`, earlier.length + 13), earlier).to.equal('other');
    }
    // A failure in a body belongs to its request.
    expect(first(`${get}HEAD / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`, get.length + 50)).to.equal('HEAD');
    expect(first('HEAD / HTTP/1.1\r\nContent-Length: 100\r\n\r\nGET / HTTP/1.7\r\n\r\n', 50)).to.equal('HEAD');
  });

  it('does not know the method in bytes read after others on the connection, nor without bytes once some were read', () => {
    const packet = Buffer.from('GET / HTTP/1.7\r\n\r\n', 'latin1');
    expect(refusedRequestMethod({ packet, errorAt: 13, bytesRead: packet.length + 30 })).to.equal('unknown');
    expect(refusedRequestMethod({ packet: undefined, errorAt: undefined, bytesRead: 12 })).to.equal('unknown');
    expect(refusedRequestMethod({ packet: undefined, errorAt: undefined, bytesRead: 0 })).to.equal('other');
  });

  it("reads the method a connection's first bytes begin with, once its request line's method is whole", () => {
    const of = (text: string) => methodOfFirstBytes(Buffer.from(text, 'latin1'));
    expect(of('HEAD /healthz HTTP/1.1\r\nX-Long: aaaa')).to.equal('HEAD');
    expect(of('\r\nHEAD / HTTP/1.1')).to.equal('HEAD');
    expect(of('GET / HTTP/1.1\r\n')).to.equal('other');
    expect(of('HEADER / HTTP/1.1')).to.equal('other');
    expect(of('HEA')).to.equal('unknown');
  });
});
