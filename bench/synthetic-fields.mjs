// Field descriptors (FieldDesc, as getschema answers them) for every type of a listing, seeded:
// the same bytes on every run. Shaped as the real listing's (264 types with fields make ~51,000
// lines of generated types): a key of one to three fields (a ticker, expiry or option key, often
// with a text or enum beside it), 8 to 60 other fields (about 22), mostly prices and sizes, some
// 64-bit timestamps, texts, dates and enums; the enums drawn from a small pool of sets (the
// same exchange list in many fields and types, as the real dictionary repeats it), a repeating
// group in one type of ten, and a description on most fields.

/** A seeded generator (mulberry32). */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXCHANGES = 'None,AMEX,BOX,CBOE,ISE,PHLX,ARCA,NSDQ,BATS,C2,MIAX,GEM,EDGO,MPRL,EMLD,MEMX,NYSE,BATY,EDGA,EDGX,IEX,LTSE,CBOF,CFE,CME,CBOT,NYMEX,COMEX,ICE,EUREX';
const WORDS = ['price', 'size', 'qty', 'vol', 'delta', 'gamma', 'theta', 'vega', 'rate', 'yield', 'mark', 'bid', 'ask', 'last', 'open', 'close', 'high', 'low', 'notional', 'margin', 'limit', 'count', 'weight', 'beta'];
const QUALIFIERS = ['', 'Adj', 'Prev', 'Avg', 'Max', 'Min', 'Net', 'Total', 'Day', 'Theo', 'Mid', 'Cum'];

/** The pool of enum sets: a few large ones used often (exchanges), many small ones. */
function enumPool(rnd) {
  const pool = [EXCHANGES, EXCHANGES.split(',').slice(0, 17).join(','), 'None,Buy,Sell', 'None,Call,Put', 'None,Open,Closed,Halted', 'None,USD,EUR,GBP,JPY,CAD,CHF,AUD,HKD'];
  for (let i = 0; i < 30; i++) {
    const size = 3 + Math.floor(rnd() * 14);
    pool.push(['None', ...Array.from({ length: size }, (_, k) => `V${i}x${k}`)].join(','));
  }
  return pool;
}

/** `{ [name]: FieldDesc[] }` for the given type names. */
export function syntheticFields(names, seed = 264) {
  const rnd = random(seed);
  const pool = enumPool(rnd);
  const pickEnum = () => (rnd() < 0.45 ? pool[Math.floor(rnd() * 2)] : pool[Math.floor(rnd() * pool.length)]);
  const out = {};
  for (const name of names) {
    if (name === 'QueryResult') {
      out[name] = [
        { pos: 1, fNum: 10, name: 'numMessagesSent', fType: 'Long', isPkey: 'No' },
        { pos: 2, fNum: 11, name: 'queryElapsed', fType: 'Double', isPkey: 'No' },
        { pos: 3, fNum: 12, name: 'result', fType: 'Enum', isPkey: 'No', eSet: 'Ok,Error,AuthError,TokenError,MLinkError,TransportError' },
        { pos: 4, fNum: 13, name: 'detail', fType: 'String', isPkey: 'No' },
      ];
      continue;
    }
    const fields = [];
    const add = (field) => fields.push({ pos: fields.length + 1, fNum: 10 + fields.length, isPkey: 'No', ...field, ...(rnd() < 0.75 ? { desc: `The ${field.name} of the ${name} record, as the service computes it.` } : {}) });
    const key = ['TickerKey', 'ExpiryKey', 'OptionKey', 'String'][Math.floor(rnd() * 4)];
    add({ name: key === 'String' ? 'accnt' : key === 'TickerKey' ? 'ticker' : key === 'ExpiryKey' ? 'ekey' : 'okey', fType: key, isPkey: 'Yes' });
    if (rnd() < 0.4) add({ name: 'session', fType: 'Enum', isPkey: 'Yes', eSet: pickEnum() });
    const count = 8 + Math.floor(rnd() * rnd() * 53);
    const used = new Set(fields.map((f) => f.name));
    for (let i = 0; i < count; i++) {
      const r = rnd();
      const fType = r < 0.32 ? 'Double' : r < 0.47 ? 'Int' : r < 0.55 ? 'Long' : r < 0.64 ? 'String' : r < 0.8 ? 'Enum' : r < 0.83 ? 'Flag' : r < 0.89 ? 'DateTime' : r < 0.93 ? 'DateKey' : r < 0.96 ? 'Float' : 'UInt';
      let fieldName = `${WORDS[Math.floor(rnd() * WORDS.length)]}${QUALIFIERS[Math.floor(rnd() * QUALIFIERS.length)]}`;
      while (used.has(fieldName)) fieldName += 'X';
      used.add(fieldName);
      add({ name: fieldName, fType, ...(fType === 'Enum' || fType === 'Flag' ? { eSet: pickEnum() } : {}) });
    }
    if (rnd() < 0.1) {
      add({ name: 'legs', fType: 'Repeater' });
      for (const [item, fType] of [['legKey', 'OptionKey'], ['legRatio', 'Int'], ['legSide', 'Enum'], ['legPrice', 'Double']]) {
        add({ name: item, fType, inRepeater: 'legs', ...(fType === 'Enum' ? { eSet: 'None,Buy,Sell' } : {}) });
      }
    }
    out[name] = fields;
  }
  return out;
}
