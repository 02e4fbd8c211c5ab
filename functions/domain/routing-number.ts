// ABA routing number checksum: 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10).
// Catches every single-digit typo and most transpositions before anything is sent to a bank.

const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;

export function isValidRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const sum = WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(value[i]), 0);
  return sum % 10 === 0;
}
