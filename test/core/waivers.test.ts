import { describe, expect, test } from 'vitest';
import {
  parseExpiresInput,
  type ScopedWaiver,
  waivedAt,
  waiverExpiry,
  waiverFolder,
  waiverHolds,
  waiverPath,
  waiversForPlan,
} from '../../src/core/waivers.ts';

const PLAN = '01M8KK5920RS6CGAVDFVYYJ0B4';
const OTHER_PLAN = '01M8KK7W00HBN1G5Q8TJ4Z2VXC';

describe('waiver paths', () => {
  test('a plan waiver and a project waiver', () => {
    expect(waiverFolder({ kind: 'plan', plan: PLAN })).toBe(`plans/${PLAN}/waivers`);
    expect(waiverPath({ kind: 'project', project: 'alpha' }, 'X')).toBe('projects/alpha/waivers/X.yaml');
  });
});

describe('waiverExpiry', () => {
  test('a date holds through that day (UTC): it ends at the next midnight', () => {
    expect(waiverExpiry('2026-03-01')).toBe(Date.UTC(2026, 2, 2));
    expect(waiverExpiry('2024-02-29')).toBe(Date.UTC(2024, 2, 1));
    expect(waiverExpiry('2026-12-31')).toBe(Date.UTC(2027, 0, 1));
  });

  test('a date-time ends at that instant', () => {
    expect(waiverExpiry('2026-03-01T10:00:00Z')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(waiverExpiry('2026-03-01T10:00:00.250+02:00')).toBe(Date.UTC(2026, 2, 1, 8, 0, 0, 250));
    expect(waiverExpiry('2026-03-01T10:00:00-01:30')).toBe(Date.UTC(2026, 2, 1, 11, 30));
  });

  test.each([
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-01-32',
    '2026-01-00',
    '2026-3-01',
    '2026-03-1',
    '20260-03-01',
    'x2026-03-01',
    '2026-03-01x',
    '2026-03-01T10:00:00',
    '2026-03-01 10:00:00Z',
    '2026-03-01T10:00:00+0200',
    '2026-03-01T10:00:00.Z',
    '2026-03-01T1:00:00Z',
    '2026-02-30T10:00:00Z',
    '2025-02-29T10:00:00Z',
    '2026-04-31T10:00:00+02:00',
    '2026-03-01T24:00:00Z',
    '2026-03-01T10:60:00Z',
    '2026-03-01T10:00:60Z',
    '2026-03-01T10:00:00+24:00',
    'x2026-03-01T10:00:00Z',
    '2026-03-01T10:00:00Zx',
    'tomorrow',
    '',
  ])('%j is no expiry', (expires) => {
    expect(waiverExpiry(expires)).toBeNaN();
  });
});

describe('waiverHolds', () => {
  test('up to the last millisecond before the end, not at it', () => {
    const end = Date.UTC(2026, 2, 2);
    expect(waiverHolds({ expires: '2026-03-01' }, new Date(end - 1))).toBe(true);
    expect(waiverHolds({ expires: '2026-03-01' }, new Date(end))).toBe(false);
    expect(waiverHolds({ expires: '2026-02-30' }, new Date(0))).toBe(false);
  });
});

function waiver(id: string, invariant_id: string, expires: string, scope: ScopedWaiver['scope']): ScopedWaiver {
  return { id, invariant_id, expires, reason: 'r', owner: 'o', created_at: '2026-01-01T00:00:00Z', scope, path: waiverPath(scope, id) };
}

describe('waivedAt', () => {
  test('holding waivers grouped by invariant, latest expiry first; expired ones left out', () => {
    const plan = { kind: 'plan', plan: PLAN } as const;
    const now = new Date(Date.UTC(2026, 5, 1));
    const ws = [
      waiver('A', 'I1', '2026-07-01', plan),
      waiver('B', 'I1', '2026-09-01', plan),
      waiver('C', 'I1', '2026-08-01', plan),
      waiver('D', 'I2', '2026-05-31', plan),
      waiver('E', 'I3', '2026-06-01', plan),
      waiver('F', 'I1', 'never', plan),
    ];
    const got = waivedAt(ws, now);
    expect([...got.keys()]).toEqual(['I1', 'I3']);
    expect(got.get('I1')!.map((w) => w.id)).toEqual(['B', 'C', 'A']);
    expect(got.get('I3')!.map((w) => w.id)).toEqual(['E']);
  });
});

describe('waiversForPlan', () => {
  const ws = [
    waiver('P', 'I', '2026-07-01', { kind: 'plan', plan: PLAN }),
    waiver('Q', 'I', '2026-07-01', { kind: 'plan', plan: OTHER_PLAN }),
    waiver('R', 'I', '2026-07-01', { kind: 'project', project: 'alpha' }),
    waiver('S', 'I', '2026-07-01', { kind: 'project', project: 'beta' }),
  ];
  test("the plan's own waivers and those of its project", () => {
    expect(waiversForPlan(ws, { id: PLAN, project: 'alpha' }).map((w) => w.id)).toEqual(['P', 'R']);
    expect(waiversForPlan(ws, { id: OTHER_PLAN, project: 'beta' }).map((w) => w.id)).toEqual(['Q', 'S']);
  });
  test('a plan with no project gets no project waivers', () => {
    expect(waiversForPlan(ws, { id: PLAN }).map((w) => w.id)).toEqual(['P']);
  });
});

describe('parseExpiresInput', () => {
  const now = new Date(Date.UTC(2026, 2, 1, 12, 0, 0, 500));
  test('a future date or date-time is kept as typed, trimmed', () => {
    expect(parseExpiresInput(' 2026-03-01 ', now)).toEqual({ value: '2026-03-01' });
    expect(parseExpiresInput('2026-03-01T12:00:01Z', now)).toEqual({ value: '2026-03-01T12:00:01Z' });
  });
  test('a lower-case t or z, as RFC 3339 allows, is stored upper-case', () => {
    for (const typed of ['2026-03-02t10:00:00z', '2026-03-02T10:00:00z', '2026-03-02t10:00:00Z'])
      expect(parseExpiresInput(typed, now)).toEqual({ value: '2026-03-02T10:00:00Z' });
  });
  test('not a date', () => {
    expect(parseExpiresInput(' soon ', now)).toEqual({
      problem: 'expires "soon" is not a date (YYYY-MM-DD) or an RFC 3339 date-time (2026-12-31T18:00:00Z)',
    });
  });
  test('the present and the past are refused, with now shown to the second', () => {
    expect(parseExpiresInput('2026-03-01T12:00:00.500Z', now)).toEqual({
      problem: 'expires 2026-03-01T12:00:00.500Z is not in the future (now 2026-03-01T12:00:00Z)',
    });
    expect(parseExpiresInput('2026-02-28', now)).toEqual({
      problem: 'expires 2026-02-28 is not in the future (now 2026-03-01T12:00:00Z)',
    });
  });
});

describe('waiverExpiry: years and prefixes', () => {
  test('a date in the years 0000 to 0099 is a day of that year, as the same date-time is', () => {
    expect(waiverExpiry('0050-06-15')).toBe(Date.parse('0050-06-16T00:00:00Z'));
    expect(waiverExpiry('0000-01-01')).toBe(Date.parse('0000-01-02T00:00:00Z'));
    expect(waiverExpiry('0099-12-31')).toBe(Date.parse('0100-01-01T00:00:00Z'));
    expect(waiverExpiry('0050-02-29')).toBeNaN();
  });

  test('an expanded year (+002026-…), which RFC 3339 does not have, is no date-time', () => {
    expect(Date.parse('+002026-03-01T10:00:00Z')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(waiverExpiry('+002026-03-01T10:00:00Z')).toBeNaN();
  });

  test('--expires with a date of the first century is in the past, not "not a date"', () => {
    expect(parseExpiresInput('0050-06-15', new Date(Date.UTC(2026, 2, 1)))).toEqual({
      problem: 'expires 0050-06-15 is not in the future (now 2026-03-01T00:00:00Z)',
    });
  });
});
