import { describe, expect, it } from 'vitest';
import { attributePredicate, type AttributeOptions } from '../../../src/sampling/rules/attribute.js';
import { makeInput, type InputOptions } from '../helpers.js';

const prod: InputOptions = { resource: { 'service.name': 'billing', 'deployment.environment': 'prod' } };
const tier: InputOptions = { span: { attributes: { 'customer.tier': 'enterprise', 'retries': 3 } } };
const child: InputOptions = { children: [{ attributes: { 'gen_ai.tool.name': 'refund', tags: ['vip', 'eu'] } }] };

describe('attribute rule', () => {
  const cases: [string, AttributeOptions, InputOptions, boolean][] = [
    ['equals on resource', { key: 'deployment.environment', equals: 'prod' }, prod, true],
    ['equals mismatch', { key: 'deployment.environment', equals: 'staging' }, prod, false],
    ['equals, resource scope only', { key: 'service.name', equals: 'billing', in: 'resource' }, prod, true],
    ['resource key not seen with spans scope', { key: 'service.name', equals: 'billing', in: 'spans' }, prod, false],
    ['equals on agent span', { key: 'customer.tier', equals: 'enterprise', in: 'agent' }, tier, true],
    ['agent scope ignores child spans', { key: 'gen_ai.tool.name', exists: true, in: 'agent' }, child, false],
    ['spans scope sees child spans', { key: 'gen_ai.tool.name', equals: 'refund', in: 'spans' }, child, true],
    ['number compared as text', { key: 'retries', equals: 3 }, tier, true],
    ['number mismatch', { key: 'retries', equals: 4 }, tier, false],
    ['array element equals', { key: 'tags', equals: 'eu' }, child, true],
    ['array element regex', { key: 'tags', regex: '^v' }, child, true],
    ['regex match', { key: 'customer.tier', regex: '^ent' }, tier, true],
    ['regex no match', { key: 'customer.tier', regex: '^free$' }, tier, false],
    ['exists true, present', { key: 'customer.tier', exists: true }, tier, true],
    ['exists true, absent', { key: 'customer.tier', exists: true }, prod, false],
    ['exists false, absent', { key: 'customer.tier', exists: false }, prod, true],
    ['exists false, present', { key: 'customer.tier', exists: false }, tier, false],
    ['null value counts as absent', { key: 'x', exists: true }, { span: { attributes: { x: null } } }, false],
    ['kvlist value never equals text', { key: 'x', equals: '[object Object]' }, { span: { attributes: { x: { a: 1 } } } }, false],
  ];
  it.each(cases)('%s', (_name, options, input, want) => {
    expect(attributePredicate(options).evaluate(makeInput(input))).toBe(want);
  });

  it('describes itself', () => {
    expect(attributePredicate({ key: 'customer.tier', regex: '^ent' }).describe()).toContain('customer.tier ~ /^ent/');
  });
});
