import { describe, expect, it } from 'vitest';
import { JOB_KINDS, PULLED_KINDS } from '../../domain/jobs.js';
import { jobKindOf, jobKindSummary } from './registry.js';

describe('job kind registry', () => {
  it('sends every kind but the pulled ones, each under its own name, and describes every kind', () => {
    for (const name of JOB_KINDS) {
      const pulled = (PULLED_KINDS as readonly string[]).includes(name);
      expect(jobKindOf(name)?.name, name).toBe(pulled ? undefined : name);
      expect(jobKindSummary(name).length, name).toBeGreaterThan(10);
    }
    expect(new Set(JOB_KINDS.map(jobKindSummary)).size).toBe(JOB_KINDS.length);
    expect(jobKindOf('nope')).toBeUndefined();
  });
});
