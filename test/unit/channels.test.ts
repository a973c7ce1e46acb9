import { expect } from 'chai';
import {
  channelNameProblem,
  channelOffers,
  DEFAULT_CHANNELS,
  defaultChannel,
  isChannel,
} from '../../shared/releases/channels';

describe('release channels', () => {
  it('default to stable, rc, beta, alpha, dev, stable being the channel of a version that names none', () => {
    expect(DEFAULT_CHANNELS).to.deep.equal(['stable', 'rc', 'beta', 'alpha', 'dev']);
    expect(defaultChannel(DEFAULT_CHANNELS)).to.equal('stable');
    expect(defaultChannel(['production', 'canary'])).to.equal('production');
  });

  describe('what a client asking for a channel sees: it and every more stable one', () => {
    const cases: Array<[string, string[]]> = [
      ['stable', ['stable']],
      ['rc', ['stable', 'rc']],
      ['beta', ['stable', 'rc', 'beta']],
      ['alpha', ['stable', 'rc', 'beta', 'alpha']],
      ['dev', ['stable', 'rc', 'beta', 'alpha', 'dev']],
    ];
    for (const [requested, visible] of cases) {
      it(requested, () => {
        for (const channel of DEFAULT_CHANNELS) {
          expect(channelOffers(DEFAULT_CHANNELS, requested, channel), `${requested} offers ${channel}`).to.equal(visible.includes(channel));
        }
      });
    }

    it('nothing for a name that is not a channel', () => {
      for (const name of ['Stable', 'latest', 'gamma', '', '__proto__', 'constructor']) {
        expect(isChannel(DEFAULT_CHANNELS, name), name).to.equal(false);
        expect(channelOffers(DEFAULT_CHANNELS, name, 'stable'), name).to.equal(false);
      }
      expect(isChannel(DEFAULT_CHANNELS, 'beta')).to.equal(true);
    });

    it('a version left in a channel no longer configured only to clients of the least stable channel', () => {
      expect(channelOffers(DEFAULT_CHANNELS, 'dev', 'nightly')).to.equal(true);
      for (const requested of ['stable', 'rc', 'beta', 'alpha']) expect(channelOffers(DEFAULT_CHANNELS, requested, 'nightly'), requested).to.equal(false);
    });
  });

  describe('names', () => {
    for (const name of ['stable', 'rc', 'beta', 'early-access', 'canary_2', 'mac', 'linux', 'macos', 'x-linuxy', 'mac-beta', 'a'.repeat(32), 'root-builds', 'targets2', 'snapshots', 'timestamped']) {
      it(`accepts ${name}`, () => expect(channelNameProblem(name)).to.equal(null));
    }
    const refused: Array<[string, RegExp]> = [
      ['Beta', /lowercase/],
      ['', /lowercase/],
      ['a'.repeat(33), /1-32/],
      ['be ta', /lowercase/],
      ['beta.1', /lowercase/],
      ['latest', /electron-updater/],
      ['beta-mac', /suffix/],
      ['beta-linux', /suffix/],
      ['beta-linux-arm64', /suffix/],
      ['my-linux-builds', /suffix/],
      ['root', /TUF/],
      ['timestamp', /TUF/],
      ['snapshot', /TUF/],
      ['targets', /TUF/],
    ];
    for (const [name, problem] of refused) {
      it(`refuses ${JSON.stringify(name.length > 20 ? `${name.slice(0, 20)}...` : name)}`, () => expect(channelNameProblem(name)).to.match(problem));
    }
  });
});
