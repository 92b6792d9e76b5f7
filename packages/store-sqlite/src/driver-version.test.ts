import { MemStoreError } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { assertDriverRuns } from './open-database.ts';

describe('assertDriverRuns', () => {
  it('refuses better-sqlite3 13 on Node 20, naming both versions and the fix', () => {
    const run = () => assertDriverRuns('13.2.0', '20.19.5');
    expect(run).toThrow(MemStoreError);
    expect(run).toThrow(/better-sqlite3 13\.2\.0 needs Node\.js >= 22.*Node\.js 20\.19\.5/);
    expect(run).toThrow(/npm install better-sqlite3@\^12\.6\.2/);
  });

  it('lets better-sqlite3 12 run on every Node line and 13 on Node 22 and 24', () => {
    for (const node of ['20.19.0', '22.12.0', '24.1.0']) {
      expect(() => assertDriverRuns('12.6.2', node)).not.toThrow();
    }
    expect(() => assertDriverRuns('13.2.0', '22.12.0')).not.toThrow();
    expect(() => assertDriverRuns('13.0.0', '24.1.0')).not.toThrow();
    expect(() => assertDriverRuns(undefined, '20.19.0')).not.toThrow();
  });
});
