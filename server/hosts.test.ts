import { describe, expect, it } from 'vitest';
import { hostName, isLoopbackHost } from './hosts';

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.com', '10.0.0.1'])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('hostName', () => {
  it('reads host names from Host headers', () => {
    expect(hostName('[::1]:4173')).toBe('::1');
    expect(hostName('Example.COM:8080')).toBe('example.com');
    expect(hostName('bad:host:x')).toBe('');
  });
});
