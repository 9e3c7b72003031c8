import { describe, expect, it } from 'vitest';
import { locateIp } from './ip-location.js';

describe('locateIp', () => {
  it('names the city and the country of a public address, IPv4 or IPv6, from the shipped database', async () => {
    expect(await locateIp('81.2.69.142')).toEqual({ city: 'St Albans', country: 'United Kingdom' });
    expect(await locateIp('2a02:c7f::1')).toEqual({ city: 'Cranleigh', country: 'United Kingdom' });
  });

  it('gives the country alone when the database knows no city', async () => {
    expect(await locateIp('8.8.8.8')).toEqual({ city: '', country: 'United States' });
  });

  it('knows no place for private, loopback and documentation addresses: empty, so they are not looked up again', async () => {
    for (const ip of ['10.0.0.1', '127.0.0.1', '::1', '203.0.113.7', '2001:db8::1'])
      expect(await locateIp(ip)).toEqual({ city: '', country: '' });
  });
});
