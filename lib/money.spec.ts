import { decimalToMinor, formatMoney, minorToDecimal } from './money.js';

describe('money in integer minor units', () => {
  it('formats the exact amount, or a short price without zero cents', () => {
    expect(formatMoney(2900, 'eur')).toBe('€29.00');
    expect(formatMoney(2900, 'eur', { short: true })).toBe('€29');
    expect(formatMoney(2950, 'eur', { short: true })).toBe('€29.50');
    expect(formatMoney(123456, 'gbp')).toBe('£1,234.56');
  });

  it('reads what a person types without float maths, refusing more decimals than the currency has', () => {
    expect(decimalToMinor('29', 'eur')).toBe(2900);
    expect(decimalToMinor(' 29.5 ', 'eur')).toBe(2950);
    expect(decimalToMinor('1,234.50', 'usd')).toBe(123450);
    expect(decimalToMinor('0.29', 'eur')).toBe(29);
    expect(decimalToMinor('12.345', 'eur')).toBeNull();
    expect(decimalToMinor('1,23.00', 'eur')).toBeNull();
    expect(decimalToMinor('-1', 'eur')).toBeNull();
    expect(decimalToMinor('', 'eur')).toBeNull();
  });

  it('writes minor units back as the price field shows them', () => {
    expect(minorToDecimal(2950, 'eur')).toBe('29.50');
    expect(minorToDecimal(5, 'eur')).toBe('0.05');
    expect(decimalToMinor(minorToDecimal(104560, 'eur'), 'eur')).toBe(104560);
  });
});
