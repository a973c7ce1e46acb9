import { expect } from 'chai';
import { SignedUrlMemo } from '../../shared/storage/signed-url-memo';

describe('signed URL memo', () => {
  it('signs once per inputs and second, and again in the next second', () => {
    const memo = new SignedUrlMemo();
    let signatures = 0;
    const sign = (second: number) => () => `url-${second}-${++signatures}`;
    expect(memo.get(['a', 60], 100, sign(100))).to.equal('url-100-1');
    expect(memo.get(['a', 60], 100, sign(100))).to.equal('url-100-1');
    expect(memo.get(['a', 60], 101, sign(101))).to.equal('url-101-2');
    expect(signatures).to.equal(2);
  });

  it('keeps different inputs apart, including ones that would join to the same text', () => {
    const memo = new SignedUrlMemo();
    expect(memo.get(['a', 'b,c'], 1, () => 'first')).to.equal('first');
    expect(memo.get(['a,b', 'c'], 1, () => 'second')).to.equal('second');
    expect(memo.get(['a', 'b,c', undefined], 1, () => 'third')).to.equal('third');
    expect(memo.get(['a', 'b,c'], 1, () => 'unexpected')).to.equal('first');
  });

  it('keeps several sets of options for one object, each for its second', () => {
    const memo = new SignedUrlMemo();
    let signatures = 0;
    const sign = () => `url-${++signatures}`;
    expect(memo.get(['a', 1800], 5, sign)).to.equal('url-1');
    expect(memo.get(['a', 300], 5, sign)).to.equal('url-2');
    expect(memo.get(['a', 1800], 5, sign)).to.equal('url-1');
    expect(memo.get(['a', 300], 5, sign)).to.equal('url-2');
    expect(memo.get(['a', 300], 6, sign)).to.equal('url-3');
    expect(memo.get(['a', 1800], 5, sign)).to.equal('url-1');
    for (let lifetime = 1; lifetime <= 4; lifetime++) memo.get(['a', lifetime], 5, sign);
    expect(memo.get(['a', 1800], 5, sign)).to.equal('url-8');
  });

  it('stays bounded', () => {
    const memo = new SignedUrlMemo(3);
    for (let i = 0; i < 10; i++) memo.get([`key-${i}`], 1, () => `url-${i}`);
    let signed = false;
    memo.get(['key-0'], 1, () => { signed = true; return 'again'; });
    expect(signed).to.equal(true);
  });
});
