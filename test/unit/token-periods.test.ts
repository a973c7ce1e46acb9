import { expect } from 'chai';
import { tokenPeriod } from '../../shared/token-periods';

const utc = (text: string) => Date.parse(text);

describe('access token periods', () => {
  const created = new Date('2030-01-02T10:00:00Z');

  it('counts from the creation, for ever, when the token never resets', () => {
    expect(tokenPeriod(null, created, utc('2031-06-01T00:00:00Z'))).to.deep.equal({ start: created, end: null });
  });

  it('starts a day at midnight UTC, the next one at the next midnight', () => {
    expect(tokenPeriod('day', created, utc('2030-01-15T23:59:59.999Z'))).to.deep.equal({ start: new Date('2030-01-15T00:00:00Z'), end: new Date('2030-01-16T00:00:00Z') });
    expect(tokenPeriod('day', created, utc('2030-01-16T00:00:00Z')).start).to.deep.equal(new Date('2030-01-16T00:00:00Z'));
    expect(tokenPeriod('day', created, utc('2030-12-31T12:00:00Z')).end).to.deep.equal(new Date('2031-01-01T00:00:00Z'));
  });

  it('starts a week on Monday, a Sunday belonging to the week before it', () => {
    // 2030-01-13 is a Sunday, 2030-01-14 a Monday.
    expect(tokenPeriod('week', created, utc('2030-01-13T23:00:00Z'))).to.deep.equal({ start: new Date('2030-01-07T00:00:00Z'), end: new Date('2030-01-14T00:00:00Z') });
    expect(tokenPeriod('week', created, utc('2030-01-14T00:00:00Z')).start).to.deep.equal(new Date('2030-01-14T00:00:00Z'));
    expect(tokenPeriod('week', created, utc('2030-01-01T08:00:00Z'))).to.deep.equal({ start: new Date('2029-12-31T00:00:00Z'), end: new Date('2030-01-07T00:00:00Z') });
  });

  it('starts a month on its first day, through the turn of the year and February', () => {
    expect(tokenPeriod('month', created, utc('2030-12-31T23:59:59Z'))).to.deep.equal({ start: new Date('2030-12-01T00:00:00Z'), end: new Date('2031-01-01T00:00:00Z') });
    expect(tokenPeriod('month', created, utc('2032-02-29T12:00:00Z'))).to.deep.equal({ start: new Date('2032-02-01T00:00:00Z'), end: new Date('2032-03-01T00:00:00Z') });
  });
});
