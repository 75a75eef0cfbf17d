/**
 * Claim grounding on the patterns of correct and wrong answers that production models write (issue 28): a
 * matching value in another form is supported, never a contradiction; a wrong value tied to its slot is a
 * contradiction. Each case's expectation comes from the case itself (what the tool said, what the answer says),
 * computed by hand: 482350 cents is $4,823.50, 19.3 km/h is 12.0 mph, 18 °C is 64.4 °F, 2 × €184 is €368.
 */
import { describe, expect, it } from 'vitest';
import { checkClaims, claimGroundingScore } from '../../../src/scorers/code/claim-grounding/index.js';

const check = (answer: string, result: unknown) => checkClaims(answer, [{ toolName: 't', result }], [], { day: '2026-12-07' });

/** Correct answers: nothing may be contradicted or made up (the score is at least the 0.5 threshold). */
const RIGHT: [string, string, unknown][] = [
  ['a count named by the key', 'You have 1 checked bag on this booking.', { booking: { checkedBags: 1, passenger: 'Ana' } }],
  ['a count of a key in camelCase', 'There are 2 pending payments on your account.', { pendingTransactions: 2 }],
  ['a debit shown as a charge', 'You were charged $14.99 at Spotify.', { transactions: [{ merchant: 'Spotify', amount: -14.99 }] }],
  ['cents written as dollars', 'The estimate is $4,823.50.', { estimate_cents: 482350 }],
  ['an abbreviated amount', 'The listing is $625k.', { price: 625000 }],
  ['milliseconds as seconds, a fraction as a percentage', 'p99 latency is 1.84 s and the error rate is 0.31%.', { p99_ms: 1840, error_rate: 0.0031, cpu_pct: 42 }],
  ['a product of one record', 'Two nights at €184 come to €368 in total.', { nights: 2, rate_eur: 184 }],
  ['a count from a total', '7 homes match your search.', { total: 7, listings: [] }],
  ['a negation that agrees', "A postmortem is required and hasn't been written yet.", { postmortem_required: true, postmortem_url: null }],
  ['an enum paraphrased', 'Your parcel is on its way.', { status: 'IN_TRANSIT' }],
  ['km/h converted to mph', 'Wind is 12 mph.', { wind_kmh: 19.3 }],
  ['°C converted to °F', 'It is 64°F today.', { temp_c: 18 }],
  ['a payout after the deductible', 'You will receive $4,000 after the deductible.', { approved_amount: 5000, deductible: 1000 }],
  ['a time zone word and a UTC time', 'It was unlocked at 08:41 UTC.', { unlocked_at: '2026-12-07T08:41:00Z' }],
  ['a list length', 'You have 3 open tickets.', { tickets: [{ id: 'T-1' }, { id: 'T-2' }, { id: 'T-3' }] }],
  ['hours and minutes', 'The flight takes 6 h 55 min.', { typicalDuration_min: 415 }],
  ['a rounded amount', 'It comes to about $4.8k.', { total_usd: 4823.5 }],
  // 170 km is 105.63 mi: a converted figure cut to 105 rather than rounded to 106.
  ['a conversion cut, not rounded', 'TRK-0510 has about 170 km / 105 mi of range.', { vehicles: [{ id: 'TRK-0510', range_km: 170 }] }],
  // A rate per km is money, not a distance: 300 km × 3 = 900 km, 1,150 − 900 = 250 km, 250 × €0.25 = €62.50.
  ['a key that is a rate per unit', 'You drove 1,150 km, 250 km over, so the charge is €62.50.', { currency: 'EUR', mileage: { included_km_per_day: 300, days: 3, excess_rate_cents_per_km: 25 } }],
  ['a negation after the key words', "Roadside assistance isn't included on your policy.", { optionalCoverages: { roadsideAssistance: false } }],
  ['an offer is not a claim', 'I can help you look at adding roadside assistance.', { optionalCoverages: { roadsideAssistance: false } }],
  // 62 % of 55 L is 34.1 L: the sentence states the slot's own value (55), so 34 is another quantity.
  ['a derived quantity beside its slot', 'Topping up 62% of the 55-liter tank is about 34 liters.', { fuel: { level_now_pct: 38, tank_liters: 55 } }],
  // 2917 − 1000 cents: an installment less a credit of the nested record.
  ['a difference with a nested amount', 'With the credit your effective cost is $19.17 a month.', { monthlyInstallmentCents: 2917, promoCredit: { monthlyCents: -1000 } }],
  ['a unit is not a name', '50 GB of priority data each month.', { data: { priorityGb: 50, afterPriority: 'DEPRIORITIZED' } }],
  // 120 is no transposition of the 210 days of supply: money is compared with money only.
  // 22:30 UTC on 12 June is 16:30 in Denver (MDT, UTC−6).
  ['a UTC time in the local zone the tools name', 'It will be ready at 4:30 PM Mountain Time.', { estimated_ready_at: '2026-06-12T22:30:00Z', store: { timezone: 'America/Denver' } }],
  ['a UTC time as local time, no zone named', 'Pickup is at 2:00 PM.', { pickup: { at: '2026-05-15T19:00:00Z', timezone: 'America/Chicago' } }],
  ['a sold listing said sold', 'It sold on June 12 for $592k.', { listing: { status: 'SOLD', sold_date: '2026-06-12', sold_price: 592000 } }],
  ['a needed signature said required in other words', 'A signature is needed on delivery.', { signatureRequired: true }],
  ['no alerts when the list is empty', 'There are no active weather alerts.', { total: 0, alerts: [] }],
  ['a null pointer slot said not done', "The postmortem hasn't been published yet.", { postmortem_required: true, postmortem_url: null }],
  ['a status after a modal is a possibility', 'It was delivered on 2026-03-02; electronics can be returned within 30 days.', { order: { status: 'delivered', estimated_delivery: '2026-03-02' }, policy: { return_window_days: 30 } }],
  // 01:00 UTC on 20 December is the evening of Saturday 19 December in the Americas.
  ['the local date of a UTC instant', 'The show is on Saturday, December 19.', { event: { starts_at: '2026-12-20T01:00:00Z' } }],
  ['the local date in the zone the tools name', 'Doors open Friday, Jan 15.', { event: { doors_at: '2027-01-16T02:30:00Z', tz: 'America/Los_Angeles' } }],
  // 1450 + 100 cents: an item and its modifier.
  ['an item with its modifiers', 'Margherita Pizza with extra basil: $15.50.', { items: [{ name: 'Margherita Pizza', price_cents: 1450, modifiers: [{ name: 'Extra basil', price_cents: 100 }] }] }],
  // 7000 cents for two seats: $35 a seat.
  ['a per-unit figure of a total', 'The price difference is $35 more per seat.', { options: [{ seats: ['108', '109'], price_difference_cents: 7000 }] }],
  ['a yes/no slot of the object the clause names', 'Your individual deductible is fully met.', { individual: { met: true }, family: { met: false } }],
  ['a window in a key is no unit of its value', 'You have 17,250 miles expiring in the next six months.', { total_expiring_next_180_days: 17250 }],
  ['a conversion factor after ≈', 'You used 68 therms; since 1 therm ≈ 29.3 kWh, that is about 1,990 kWh.', { meters: [{ usage_therms: 68 }] }],
  // 12 lb is 5.44 kg.
  ['a figure and its conversion side by side', 'The actual weight is 12 lb (about 5.4 kg).', { weight: { actual: { value: 12, unit: 'lb' } } }],
  ['money beside a column of days', 'The 90-day supply costs $120.00 a year.', { options: [{ days_supply: 30, copay_cents: 1250 }, { days_supply: 90, copay_cents: 3000 }, { days_supply: 90, copay_cents: 2500 }] }],
];

/**
 * RIGHT cases whose point is only that nothing is contradicted: no figure is claimed (an offer, "no alerts"), or
 * the figure is derived in a way the rules leave unverified by design (a per-unit share, an excess charge).
 */
const ONLY_NOT_CONTRADICTED: ReadonlySet<string> = new Set(['an offer is not a claim', 'no alerts when the list is empty', 'a per-unit figure of a total', 'a key that is a rate per unit']);

/** Wrong answers: the wrong specific is contradicted or made up (score 0). */
const WRONG: [string, string, unknown, string][] = [
  ['a wrong temperature', 'It is 25°C in Paris.', { city: 'Paris', temperatureC: 18 }, '25°C'],
  ['cents misread', 'The estimate is $4,832.50.', { estimate_cents: 482350 }, '$4,832.50'],
  ['a wrong abbreviated amount', 'The listing at 12 Elm St is $652k.', { address: '12 Elm St', price: 625000 }, '$652k'],
  ['a wrong delay', 'Your flight is delayed by 54 minutes.', { flight: 'TP1351', status: 'delayed', delayMinutes: 45 }, '54 minutes'],
  ['another carrier', 'Your order shipped with FedEx.', { orderId: 'A-1', status: 'shipped', carrier: 'DHL' }, 'FedEx'],
  ['another status', 'Your order has been cancelled.', { orderId: 'A-1', status: 'shipped', carrier: 'DHL' }, 'cancelled'],
  ['a wrong latency', 'The p99 latency is 2.1 s.', { service: 'api', p99_ms: 1840 }, '2.1 s'],
  ['a transposed year', 'The building was built in 1962.', { address: '1 Main', year_built: 1926 }, '1962'],
  ['a wrong payout', 'Total payout is $4,500 after the deductible.', { approved_amount: 5000, deductible: 1000 }, '$4,500'],
  ['a wrong conversion', 'Wind is 19 mph.', { wind_kmh: 19.3 }, '19 mph'],
  ['a wrong sign', 'It is 4°C in Montreal.', { city: 'Montreal', temperature_c: -4 }, '4°C'],
  ['a transposed derived total', 'Two nights come to €386 in total.', { nights: 2, rate_eur: 184 }, '€386'],
  ['a refund said issued when none is', 'Your refund has been issued.', { orderId: 'A-1', refund: null }, 'Your refund has been issued.'],
  ['a weekday that is not the date\'s', 'It was delivered on Friday, November 19.', { deliveredAt: '2026-11-19T20:47:00Z' }, 'Friday, November 19'],
  ['the same figure in another currency', 'Invoice INV-1 was $129.50.', { invoiceNumber: 'INV-1', amountEur: 129.5 }, '$129.50'],
  ['the same figure in another unit', 'Shipping takes about 5 weeks.', { days: 5, carrier: 'DHL' }, '5 weeks'],
  ['an amount off by a power of ten', 'The order came to $1,562.00.', { total_cents: 1562000 }, '$1,562.00'],
  // 19:00 UTC on 15 May is 14:00 in Chicago (CDT, UTC−5), not 13:00.
  ['a wrong local time in the zone the tools name', 'Your car is ready at 1:00 PM Central.', { pickup: { at: '2026-05-15T19:00:00Z', timezone: 'America/Chicago' } }, '1:00 PM'],
  ['a sold home said available', 'Good news: 118 Elm Terrace is still available.', { listing: { address: '118 Elm Terrace', status: 'SOLD' } }, 'available'],
  ['a payment in processing said cleared', 'Yes, your payment cleared.', { payment: { id: 'py_1', status: 'PROCESSING' } }, 'cleared'],
  ['a policy pending cancellation said in good standing', 'Your policy is in good standing.', { policy: { status: 'PENDING_CANCELLATION' } }, 'good standing'],
  ['a required signature said not needed', 'No signature is needed for this parcel.', { signatureRequired: true }, 'No signature is needed for this parcel.'],
  ['a null pointer slot said done', 'The postmortem has been completed and published.', { postmortem_required: true, postmortem_url: null }, 'The postmortem has been completed'],
  ['no alerts when a tool listed one', 'There are no active weather alerts today.', { total: 1, alerts: [{ event: 'HEAT_ADVISORY' }] }, 'no active weather alerts'],
  ['a date two days off a UTC instant', 'Hamilton is on Thursday, December 17.', { event: { name: 'Hamilton', starts_at: '2026-12-20T01:00:00Z' } }, 'Thursday, December 17'],
  ['a weekday that is not the local date\'s in the zone the tools name', 'Doors open Saturday, Jan 16.', { event: { doors_at: '2027-01-16T02:30:00Z', tz: 'America/Los_Angeles' } }, 'Saturday, Jan 16'],
  ['a yes/no slot of the named object said the other way', 'Your family deductible is met.', { individual: { met: true }, family: { met: false } }, 'Your family deductible is met.'],
  // 15 lb is 6.8 kg, not 10.2.
  ['a wrong conversion beside its figure', 'The billed weight is 15 lb, which is about **10.2 kg**.', { weight: { billed: { value: 15, unit: 'lb' } } }, '10.2 kg'],
  ['two amounts of a record swapped', 'Your collision deductible is $500.', { deductibles: { collision_deductible: 1000, comprehensive_deductible: 500 } }, '$500'],
  ['two places of a record swapped', 'Pickup is at Portland Jetport.', { rental: { pickup_location: 'Boston Logan', return_location: 'Portland Jetport' } }, 'Portland Jetport'],
  ['a made-up tracking number', 'Track it with 1Z999AA10123456999.', { tracking: '1Z999AA10123456784' }, '1Z999AA10123456999'],
];

describe('claim grounding on how models write', () => {
  it.each(RIGHT)('supports %s', (name, answer, result) => {
    const r = check(answer, result);
    expect([r.contradicted.map((i) => i.text), r.fabricated.map((i) => i.text)]).toEqual([[], []]);
    expect(claimGroundingScore(r)).toBeGreaterThanOrEqual(0.5);
    // Not merely left unverified (which also scores 0.5): the answer's figure is found in the evidence.
    if (!ONLY_NOT_CONTRADICTED.has(name)) expect(r.supported.length, JSON.stringify(r.unverified.map((i) => i.text))).toBeGreaterThan(0);
  });

  it('supports how far one tool\'s amount is over another tool\'s (27,480 is 9.9 % over 25,000)', () => {
    const r = checkClaims('The forecast is about 10% over the budget.', [
      { toolName: 'getBudget', result: { limit_usd: 25000, pct_used: 24.5 } },
      { toolName: 'getForecast', result: { forecast_total_usd: 27480 } },
    ], [], { day: '2026-12-07' });
    expect([r.contradicted.map((i) => i.text), r.supported.map((i) => i.text)]).toEqual([[], ['10%']]);
  });

  it.each(WRONG)('fails %s', (_name, answer, result, wrong) => {
    const r = check(answer, result);
    expect([...r.contradicted, ...r.fabricated].map((i) => i.text)).toContain(wrong);
    expect(claimGroundingScore(r)).toBe(0);
  });
});
