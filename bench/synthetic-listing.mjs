// Synthetic listings shaped like the real one (examples/descriptors.json): same field kinds,
// token groups, flag mix, filter lists and descriptions, at any size. Deterministic (seeded).

const TOKENS = ['ClientRisk', 'ClientControl', 'MLinkRest', 'SRATS', 'MarketData', 'Trading', 'SystemData', 'WSHCorporateEvent'];
const FIELDS = ['accnt', 'currency', 'tradeDate', 'riskSession', 'clientFirm', 'ticker', 'source', 'execBrkrCode', 'okey', 'ekey'];

/** A small deterministic PRNG (mulberry32), so every run benchmarks the same bytes. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (rnd) => Array.from({ length: 16 }, () => '0123456789ABCDEF'[Math.floor(rnd() * 16)]).join('');

/** `count` wire elements; the first `changed` of them get another `schemaHash`. */
export function syntheticListing(count, { changed = 0, seed = 42 } = {}) {
  const rnd = random(seed);
  const out = [];
  for (let i = 0; i < count; i++) {
    const name = `Synthetic${String(i).padStart(5, '0')}Record${['', 'V5', 'Map', 'Config'][i % 4]}`;
    const token = TOKENS[Math.floor(rnd() * TOKENS.length)];
    const nFields = Math.floor(rnd() * 5);
    const fields = Array.from({ length: nFields }, (_, k) => FIELDS[(i + k) % FIELDS.length]);
    let hash = hex(rnd);
    // A changed type always gets another hash (its first digit flipped between C and D).
    if (i < changed) hash = `${hash[0] === 'C' ? 'D' : 'C'}${hash.slice(1)}`;
    const message = {
      pkey: {},
      name,
      mNum: 1000 + i * 7,
      schemaHash: hash,
      actions: rnd() < 0.5 ? 'S' : 'SIURD',
      hasTKey: rnd() < 0.4 ? 'Yes' : 'No',
      hasEKey: rnd() < 0.1 ? 'Yes' : 'No',
      hasOKey: rnd() < 0.1 ? 'Yes' : 'No',
      hasCF: rnd() < 0.5 ? 'Yes' : 'No',
      mToken: token,
      staticFilterFields: fields.join(','),
      topic: token.toLowerCase(),
    };
    if (rnd() < 0.55) message.desc = `${name} record with ${Math.floor(rnd() * 200) + 1} top-level fields.`;
    out.push({ header: { msgType: 'MsgDesc' }, message });
  }
  return out;
}
