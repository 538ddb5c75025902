class RecordsError extends Error {
  name = "RecordsError";
  /**
   * `invalid`: not JSON, not an answer, or a record that does not match its type; `failed`: the
   * `QueryResult` says the query failed; `truncated`: the answer ends early; `status`: the service
   * answered with an HTTP status other than 200 (`status`); `network`: no answer came; `query`: the
   * query cannot be written in the service's grammar.
   */
  kind;
  /** Each problem with its path (up to `maxIssues`). */
  issues;
  /** The answer's `QueryResult`, when it has one. */
  result;
  /** The HTTP status of an answer other than 200 (kind `status`). */
  status;
  constructor(kind, message, details = {}) {
    super(message);
    this.kind = kind;
    this.issues = details.issues ?? [];
    this.result = details.result;
    this.status = details.status;
  }
}
const PULL_HINT = "run `schema-sync pull` to bring the lockfile and types up to date";
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
function warn(message) {
  const host = globalThis;
  host.console?.warn?.(`schema-sync records: ${message}`);
}
function describe(value) {
  if (value === null) return "null";
  if (value === void 0) return "nothing";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `the string ${quote(value)}`;
    case "number":
    case "boolean":
      return `the ${typeof value} ${String(value)}`;
    case "bigint":
      return `the bigint ${String(value)}`;
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}
function quote(text) {
  const cut = text.length > 40 ? `${text.slice(0, 40)}\u2026` : text;
  return JSON.stringify(cut).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
function pathText(path) {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) text += text === "" ? key : `.${key}`;
    else text += `[${quote(key)}]`;
  }
  return text === "" ? "(the value)" : text;
}
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
class Checker {
  /** The issues, up to `max`. */
  issues = [];
  /** How many issues there were in all. */
  count = 0;
  /** The drift findings, once per type, kind and field. */
  drift = [];
  /** The message type being checked (drift findings name it). */
  type = "";
  seen = /* @__PURE__ */ new Set();
  max;
  marker;
  options;
  /**
   * @param marker - the prefix of the strings that stand for integers kept exact from the text, if any
   */
  constructor(options, marker) {
    this.options = options ?? {};
    this.max = this.options.maxIssues ?? 50;
    this.marker = marker;
  }
  /** Whether a value is a plain object (not null, not an array); not a type guard, so a check's `any` stays `any`. */
  isObject(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value);
  }
  /** Whether a value is an array (not a type guard, as `isObject`). */
  isArray(value) {
    return Array.isArray(value);
  }
  /** An own property of a record (`__proto__`, which a plain read would take from the prototype). */
  own(value, key) {
    return Object.prototype.hasOwnProperty.call(value, key) ? value[key] : void 0;
  }
  /** The default of a `Long` key field typed `bigint`: 0. */
  zero() {
    return BigInt(0);
  }
  /** Whether another issue would not be listed (a reading may stop early). */
  get full() {
    return this.count >= this.max;
  }
  /** Records an issue at `path` + `key`. */
  bad(path, key, expected, value) {
    this.count++;
    if (this.issues.length < this.max) {
      const at = key === void 0 ? path : [...path, key];
      const received = describe(value);
      this.issues.push({ path: at, expected, received, message: `${pathText(at)}: expected ${expected}, got ${received}` });
    }
    return void 0;
  }
  /** Records a drift finding, once per type, kind and field. */
  found(kind, path, field, what) {
    const id = `${kind}\0${this.type}\0${field ?? ""}`;
    if (this.options.drift === "error") {
      this.bad(path, void 0, kind === "name" ? "a name of the set" : kind === "field" ? "no such field" : "a listed message type", what);
      return;
    }
    if (this.seen.has(id)) return;
    this.seen.add(id);
    const subject = kind === "type" ? `message type ${quote(this.type)}` : `field ${quote(field ?? "")} of ${quote(this.type)}`;
    const message = kind === "name" ? `${subject} holds ${describe(what).replace("the string ", "the name ")}, which the lockfile does not list (at ${pathText(path)}): ${PULL_HINT}` : `${subject} is not in the lockfile (at ${pathText(path)}); ${kind === "type" ? "its records are left out" : "its values are left out of the records"}: ${PULL_HINT}`;
    const finding = field === void 0 ? { kind, type: this.type, path, message } : { kind, type: this.type, field, path, message };
    this.drift.push(finding);
    const onDrift = this.options.onDrift;
    if (onDrift !== void 0) onDrift(finding);
    else warn(message);
  }
  /** A message type the lockfile does not list. */
  unknownType(path) {
    this.found("type", path, void 0, this.type);
  }
  /** A value that is not a number: an integer kept exact from the text becomes its number, anything else is an issue. */
  num(value, path, key) {
    const digits = this.digits(value);
    return digits === void 0 ? this.bad(path, key, "a number", value) : Number(digits);
  }
  /** An integer in `min..max`. */
  int(value, path, key, min, max) {
    const number = typeof value === "number" ? value : this.digits(value) === void 0 ? void 0 : Number(this.digits(value));
    if (number === void 0 || !Number.isInteger(number) || number < min || number > max) return this.bad(path, key, `an integer from ${min} to ${max}`, value);
    return number;
  }
  /** A `Long` or `ULong` typed `number`: a safe integer; beyond ±2^53 an issue unless `roundInt64`. */
  longNumber(value, path, key) {
    if (typeof value === "number" && Number.isSafeInteger(value)) return value;
    const digits = this.digits(value);
    const number = typeof value === "number" ? value : digits === void 0 ? void 0 : Number(digits);
    if (number !== void 0 && Number.isInteger(number) && this.options.roundInt64 === true) return number;
    if (number !== void 0 && Number.isInteger(number)) {
      return this.bad(path, key, 'an integer within \xB12^53, as int64 "number" types it (pull with --int64 bigint or string to keep such values exact, or pass roundInt64: true to take them rounded)', value);
    }
    return this.bad(path, key, "an integer", value);
  }
  /** A `Long` or `ULong` typed `bigint`: exact, from the text's digits where it was beyond 2^53. */
  longBigint(value, path, key) {
    if (typeof value === "bigint") return value;
    if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
    const digits = this.digits(value) ?? (this.marker === void 0 && typeof value === "string" && /^-?\d+$/.test(value) ? value : void 0);
    return digits === void 0 ? this.bad(path, key, "an integer (exact: int64 bigint)", value) : BigInt(digits);
  }
  /** A `Long` or `ULong` typed `string`: its digits, exact, from the text where it was beyond 2^53. */
  longString(value, path, key) {
    if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
    if (typeof value === "bigint") return String(value);
    const digits = this.digits(value) ?? (this.marker === void 0 && typeof value === "string" && /^-?\d+$/.test(value) ? value : void 0);
    return digits === void 0 ? this.bad(path, key, "an integer (its digits: int64 string)", value) : digits;
  }
  /** The digits of an integer kept exact from the text (a marked string), else undefined. */
  digits(value) {
    const marker = this.marker;
    return marker !== void 0 && typeof value === "string" && value.startsWith(marker) ? value.slice(marker.length) : void 0;
  }
  /**
   * An enum value not in its set: a name is drift, kept as the unknown-name case of the field's
   * type (`{ unknown: name }`, which no name of the set compares equal to); an unknown-name case
   * given back (a record read before) is taken as it is; anything else is an issue.
   */
  name(value, path, key, field) {
    if (typeof value === "string") {
      this.found("name", [...path, key], field, value);
      return { unknown: value };
    }
    if (isObject(value) && typeof value["unknown"] === "string" && Object.keys(value).length === 1) return value;
    return this.bad(path, key, "an enum name", value);
  }
  /** A `TimeSpan`: text or a number. */
  span(value, path, key) {
    if (typeof value === "number") return value;
    const digits = this.digits(value);
    if (digits !== void 0) return Number(digits);
    return typeof value === "string" ? value : this.bad(path, key, "text or a number", value);
  }
  /** A value of a field whose type is not known: let through, integers kept exact from the text as numbers. */
  any(value) {
    if (this.marker === void 0) return value;
    const digits = this.digits(value);
    if (digits !== void 0) return Number(digits);
    if (typeof value === "object" && value !== null) {
      const object = value;
      for (const key of Object.keys(object)) object[key] = this.any(object[key]);
    }
    return value;
  }
  /**
   * A field the type does not list: drift, left out of the record.
   * @param group - the repeating group, for the finding's field name
   */
  extra(record, path, key, group) {
    this.found("field", [...path, key], group === void 0 ? key : `${group}.${key}`, key);
    delete record[key];
  }
  /** A key field object: `TickerKey` (1), `ExpiryKey` (2) or `OptionKey` (3). */
  key(value, path, key, kind) {
    if (!isObject(value)) {
      this.bad(path, key, kind === 1 ? "a ticker key { at, ts, tk }" : kind === 2 ? "an expiry key { at, ts, tk, dt }" : "an option key { at, ts, tk, dt, xx, cp }", value);
      return;
    }
    const at = [...path, key];
    for (const part of kind === 1 ? TICKER : kind === 2 ? EXPIRY : OPTION) {
      const v = value[part];
      if (part === "xx") {
        if (typeof v !== "number") value[part] = this.num(v, at, part);
      } else if (part === "cp") {
        if (v !== "Call" && v !== "Put") this.bad(at, part, '"Call" or "Put"', v);
      } else if (typeof v !== "string") this.bad(at, part, "a string", v);
    }
  }
  /** A missing key field. */
  missing(path, key, expected) {
    this.bad(path, key, expected, void 0);
  }
}
const TICKER = ["at", "ts", "tk"];
const EXPIRY = ["at", "ts", "tk", "dt"];
const OPTION = ["at", "ts", "tk", "dt", "xx", "cp"];
function protectIntegers(text, exact) {
  let marker;
  const escapes = text.includes("\\u00");
  for (const c of MARKERS) {
    if (!text.includes(`"${c}`) && !(escapes && text.toLowerCase().includes(`\\u00${c.charCodeAt(0).toString(16)}`))) {
      marker = c;
      break;
    }
  }
  let written = marker;
  if (marker === void 0) {
    written = "\\u0000";
    while (text.includes(written)) written += "\\u0000";
    marker = "\0".repeat(written.length / 6);
  }
  const integers = /([:,[]\s*)(-?\d{16,})(?![.eE\d])/g;
  if (!exact) return { text: text.replace(integers, `$1"${written}$2"`), marker };
  const quoted = stringRanges(text);
  const protectedText = text.replace(integers, (whole, before, digits, at) => inRanges(quoted, at + before.length) ? whole : `${before}"${written}${digits}"`);
  return { text: protectedText, marker };
}
const MARKERS = ["~", "^", "|", "`", "#"];
function stringRanges(text) {
  const ranges = [];
  let at = text.indexOf('"');
  while (at !== -1) {
    let end = text.indexOf('"', at + 1);
    while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
    if (end === -1) end = text.length;
    ranges.push(at, end);
    at = text.indexOf('"', end + 1);
  }
  return ranges;
}
function isEscaped(text, at) {
  let n = 0;
  while (text.charCodeAt(at - 1 - n) === 92) n++;
  return n % 2 === 1;
}
function inRanges(ranges, at) {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const mid = low + high >> 1;
    if (at < ranges[2 * mid]) high = mid - 1;
    else if (at > ranges[2 * mid + 1]) low = mid + 1;
    else return true;
  }
  return false;
}
const RESULTS = ["Ok", "Error", "AuthError", "TokenError", "MLinkError", "TransportError"];
function checkQueryResult(value, path, c) {
  if (!isObject(value)) return c.bad(path, void 0, "a QueryResult message", value);
  for (const key of ["numMessagesSent", "queryElapsed"]) {
    const v = value[key];
    if (v !== void 0 && typeof v !== "number") value[key] = c.num(v, path, key);
  }
  if (typeof value["result"] !== "string") c.bad(path, "result", "a result name (Ok, Error, \u2026)", value["result"]);
  if (value["detail"] !== void 0 && typeof value["detail"] !== "string") c.bad(path, "detail", "a string", value["detail"]);
  return value;
}
const FRAME = /^\r\nJ(\d{5})(\d{6})/;
function unframe(text) {
  const parts = [];
  let at = 0;
  while (at < text.length) {
    const header = FRAME.exec(text.slice(at, at + 14));
    if (header === null) {
      if (text.slice(at).trim() === "") break;
      return new RecordsError("invalid", `The framed answer has no frame header at offset ${at} (a frame is CR LF "J", 5 digits of message number and 6 of length).`, {
        issues: [{ path: [parts.length], expected: "a frame header", received: describe(text.slice(at, at + 14)), message: `[${parts.length}]: expected a frame header` }]
      });
    }
    const next = text.indexOf("\r\nJ", at + 14);
    const body = text.slice(at + 14, next === -1 ? text.length : next);
    const length = Number(header[2]);
    if (body.length < length && utf8Length(body) < length) {
      return new RecordsError("truncated", `The answer is cut short: element ${parts.length} holds ${utf8Length(body)} of the ${length} bytes its frame says.`);
    }
    parts.push(body);
    at = next === -1 ? text.length : next;
  }
  return `[${parts.join(",")}]`;
}
function utf8Length(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) n += 1;
    else if (code < 2048) n += 2;
    else if (code >= 55296 && code < 56320) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
function parseJson(text) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec(String(error instanceof Error ? error.message : error));
    const at = position === null ? "" : ` at offset ${position[1]}`;
    if (!text.trimEnd().endsWith("]")) return new RecordsError("truncated", `The answer is cut short: its JSON ends before its closing "]"${at}.`);
    return new RecordsError("invalid", `The answer is not JSON${at}.`, { issues: [{ path: [], expected: "JSON", received: "text that is not JSON", message: `expected JSON${at}` }] });
  }
  if (!Array.isArray(parsed)) {
    return new RecordsError("invalid", `The answer is not an array of elements: it is ${describe(parsed)}.`, {
      issues: [{ path: [], expected: "an array of elements", received: describe(parsed), message: `expected an array of elements, got ${describe(parsed)}` }]
    });
  }
  return parsed;
}
function headerType(element) {
  if (!isObject(element)) return void 0;
  const header = element["header"];
  if (!isObject(header)) return void 0;
  const type = header["mTyp"] ?? header["msgType"];
  if (typeof type !== "string") return void 0;
  if (header["mTyp"] === void 0) header["mTyp"] = type;
  return type;
}
function invalid(c, result) {
  const more = c.count > c.issues.length ? ` (and ${c.count - c.issues.length} more)` : "";
  const shown = c.issues.slice(0, 3).map((issue) => issue.message).join("; ");
  return new RecordsError("invalid", `The answer does not match its types: ${c.count} ${c.count === 1 ? "issue" : "issues"}${more}: ${shown}${c.issues.length > 3 ? "; \u2026" : ""}`, {
    issues: c.issues,
    ...result === void 0 ? {} : { result }
  });
}
function parseAnswer(text, schemas, options) {
  const fail = (error) => ({ success: false, error });
  if (typeof text !== "string") return fail(new RecordsError("invalid", `The answer is not text: it is ${describe(text)}.`));
  const body = text.charCodeAt(0) === 65279 ? text.slice(1) : text;
  const json = body.startsWith("\r\nJ") ? unframe(body) : body;
  if (typeof json !== "string") return fail(json);
  let marker;
  let elements;
  let exact = false;
  for (const name in schemas) if (schemas[name]["~exact"]) exact = true;
  if (!exact) elements = parseJson(json);
  else {
    const quick = protectIntegers(json, false);
    elements = parseJson(quick.text);
    if (elements instanceof RecordsError && parseJson(json) instanceof Array) {
      const exact2 = protectIntegers(json, true);
      elements = parseJson(exact2.text);
      marker = exact2.marker;
    } else marker = quick.marker;
    if (elements instanceof RecordsError) elements = parseJson(json);
  }
  if (elements instanceof RecordsError) return fail(elements);
  const c = new Checker(options, marker);
  const last = elements.length - 1;
  if (last < 0 || headerType(elements[last]) !== "QueryResult") {
    return fail(new RecordsError("truncated", `The answer is cut short: it does not end with a QueryResult (${elements.length} ${elements.length === 1 ? "element" : "elements"} read).`));
  }
  const result = checkQueryResult(elements[last].message, [last, "message"], c);
  const records = [];
  for (let i = 0; i < last && !c.full; i++) {
    const element = elements[i];
    const type = headerType(element);
    if (type === void 0) {
      c.bad([i], "header", "an element { header: { mTyp }, message }", isObject(element) ? element.header : element);
      continue;
    }
    c.type = type;
    if (type === "QueryResult") {
      c.bad([i, "header"], "mTyp", "a record (a QueryResult ends the answer)", type);
      continue;
    }
    const schema = Object.prototype.hasOwnProperty.call(schemas, type) ? schemas[type] : void 0;
    if (schema === void 0) {
      c.unknownType([i]);
      continue;
    }
    const path = [i, "message"];
    const checked = schema["~check"](element.message, path, c);
    if (checked !== void 0) records.push(element);
  }
  if (c.count > 0) return fail(invalid(c, result));
  const status = result;
  if (status.result !== "Ok") {
    const name = RESULTS.includes(status.result) ? status.result : quote(status.result);
    const detail = status.detail === void 0 ? "" : `: ${quote(status.detail)}`;
    return fail(new RecordsError("failed", `The query failed: QueryResult ${name}${detail}.`, { result: status }));
  }
  if (status.numMessagesSent !== void 0 && status.numMessagesSent > last) {
    return fail(new RecordsError("truncated", `The answer is cut short: its QueryResult says ${status.numMessagesSent} records were sent, it holds ${last}.`, { result: status }));
  }
  return { success: true, data: { records, result: status, drift: c.drift } };
}
function orThrow(result) {
  if (result.success) return result.data;
  throw result.error;
}
function copy(value) {
  if (Array.isArray(value)) return value.map(copy);
  if (!isObject(value)) return value;
  const out = {};
  for (const key of Object.keys(value)) out[key] = copy(value[key]);
  return out;
}
const FIELD = {
  ANY: 0,
  TEXT: 1,
  DOUBLE: 2,
  INT: 3,
  UINT: 4,
  RANGE: 5,
  LONG_NUMBER: 6,
  LONG_BIGINT: 7,
  LONG_STRING: 8,
  ENUM: 9,
  ENUM_ANY: 10,
  FLAG: 11,
  SPAN: 12,
  KEY: 13,
  GROUP: 14,
  PKEY: 15
};
function tableCheck(type, text) {
  const table = JSON.parse(text);
  const sets = (table.e ?? []).map((names) => new Set(names));
  const shown = JSON.stringify(type).slice(1, -1);
  const groups = [];
  const key = table.k === void 0 ? void 0 : fieldsCheck(table.k, `the key of ${shown}`, void 0, true);
  const top = fieldsCheck(table.f, `a record of ${shown}`, void 0, false);
  for (const [group, fields] of table.g ?? []) groups.push(fieldsCheck(fields, `an entry of ${JSON.stringify(group).slice(1, -1)}`, group, false));
  return top;
  function fieldsCheck(fields, expected, group, isKey) {
    const steps = /* @__PURE__ */ new Map();
    for (const [name, kind, arg] of fields) {
      const range = Array.isArray(arg) ? arg : [0, 0];
      const names = kind === FIELD.ENUM ? sets[arg] : void 0;
      steps.set(name, { kind, arg, min: range[0], max: range[1], names, path: group === void 0 ? name : `${group}.${name}` });
    }
    return (m, p, c) => {
      if (!c.isObject(m)) return c.bad(p, void 0, expected, m);
      for (const k in m) {
        const s = steps.get(k);
        if (s === void 0) {
          c.extra(m, p, k, group);
          continue;
        }
        const v = m[k];
        switch (s.kind) {
          case FIELD.TEXT:
            if (typeof v !== "string") c.bad(p, k, "a string", v);
            break;
          case FIELD.DOUBLE:
            if (typeof v !== "number") m[k] = c.num(v, p, k);
            break;
          case FIELD.INT:
            if (typeof v !== "number" || (v | 0) !== v) m[k] = c.int(v, p, k, -2147483648, 2147483647);
            break;
          case FIELD.UINT:
            if (typeof v !== "number" || v >>> 0 !== v) m[k] = c.int(v, p, k, 0, 4294967295);
            break;
          case FIELD.RANGE:
            if (typeof v !== "number" || !(v >= s.min && v <= s.max && v % 1 === 0)) m[k] = c.int(v, p, k, s.min, s.max);
            break;
          case FIELD.LONG_NUMBER:
            if (typeof v !== "number" || !(v <= 9007199254740991 && v >= -9007199254740991 && v % 1 === 0)) m[k] = c.longNumber(v, p, k);
            break;
          case FIELD.LONG_BIGINT:
            m[k] = c.longBigint(v, p, k);
            break;
          case FIELD.LONG_STRING:
            m[k] = c.longString(v, p, k);
            break;
          case FIELD.ENUM:
            if (!s.names.has(v)) m[k] = c.name(v, p, k, s.path);
            break;
          case FIELD.ENUM_ANY:
            if (typeof v !== "string") c.bad(p, k, "an enum name", v);
            break;
          case FIELD.FLAG:
            if (typeof v !== "string") c.bad(p, k, "a flag name", v);
            break;
          case FIELD.SPAN:
            if (typeof v !== "number") m[k] = c.span(v, p, k);
            break;
          case FIELD.KEY:
            c.key(v, p, k, s.arg);
            break;
          case FIELD.GROUP:
            if (!c.isArray(v)) c.bad(p, k, "an array", v);
            else for (let i = 0; i < v.length; i++) groups[s.arg](v[i], [...p, k, i], c);
            break;
          case FIELD.PKEY:
            key(v, [...p, k], c);
            break;
          default:
            m[k] = c.any(v);
        }
      }
      if (isKey) {
        for (const [name, kind, , fallback] of fields) {
          if (c.own(m, name) !== void 0) continue;
          if (fallback === void 0) c.bad(p, name, "a key field", void 0);
          else m[name] = kind === FIELD.LONG_BIGINT ? c.zero() : fallback;
        }
      }
      return m;
    };
  }
}
function recordSchema(type, table, exact = false) {
  let made = typeof table === "string" ? void 0 : table;
  const check = (value, path, c) => (made ??= tableCheck(type, table))(value, path, c);
  const safeParse = (value, options) => {
    const c = new Checker(options, void 0);
    c.type = type;
    const out = check(copy(value), [], c);
    return c.count > 0 ? { success: false, error: invalid(c) } : { success: true, data: out };
  };
  const told = /* @__PURE__ */ new Set();
  const onDrift = (finding) => {
    const id = `${finding.kind}\0${finding.field ?? ""}`;
    if (told.has(id)) return;
    told.add(id);
    warn(finding.message);
  };
  return {
    type,
    "~standard": {
      version: 1,
      vendor: "schema-sync",
      validate: (value) => {
        const result = safeParse(value, { onDrift });
        return result.success ? { value: result.data } : { issues: result.error.issues.map((issue) => ({ message: issue.message, path: issue.path })) };
      }
    },
    parse: (value, options) => orThrow(safeParse(value, options)),
    safeParse,
    "~check": check,
    "~exact": exact
  };
}
const MAX_LIMIT = 1e4;
const QUERY_FIELD = /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)?$/;
const OPERATORS = ["eq", "ne", "gt", "ge", "lt", "le", "sw", "ew", "cv", "nv", "cb"];
const GRAMMAR = /[&|()]/;
function badQuery(where, problem) {
  return new RecordsError("query", `The records query cannot be written: ${where} ${problem}.`);
}
function queryParams(name, query, keyFields) {
  const Params = globalThis.URLSearchParams;
  if (Params === void 0) throw new RecordsError("query", "This platform has no URLSearchParams: records queries need one (Node.js 18 or later, any browser).");
  const params = new Params();
  params.append("cmd", "getmsgs");
  params.append("msgType", name);
  const { view, where, order, pkey, limit } = query ?? {};
  if (pkey !== void 0) params.append("pkey", pkeyText(pkey, keyFields));
  if (limit !== void 0) {
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw badQuery("limit", `must be an integer from 1 to ${MAX_LIMIT}, got ${describe(limit)}`);
    params.append("limit", String(limit));
  }
  if (view !== void 0) {
    const names = listOf(view, "view").map((field, i) => fieldName(field, `view[${i}]`, false));
    if (names.length > 0) params.append("view", names.join("|"));
  }
  if (where !== void 0) params.append("where", whereText(where, "where", true));
  if (order !== void 0) {
    const levels = listOf(order, "order").map((level, i) => orderText(level, `order[${i}]`));
    if (levels.length > 0) params.append("order", levels.join("|"));
  }
  return params;
}
function listOf(value, where) {
  if (!Array.isArray(value)) throw badQuery(where, `must be an array, got ${describe(value)}`);
  return value;
}
function fieldName(value, where, part) {
  if (typeof value !== "string" || !(part ? QUERY_FIELD : /^[A-Za-z_$][A-Za-z0-9_$]*$/).test(value)) throw badQuery(where, `must be a field name${part ? " (or key.part)" : ""}, got ${describe(value)}`);
  return value;
}
function whereText(where, at, top) {
  if (Array.isArray(where)) return conditionText(where, at);
  if (isObject(where)) {
    const keys = Object.keys(where);
    const join = keys.length === 1 && keys[0] === "and" ? "&" : keys.length === 1 && keys[0] === "or" ? "|" : void 0;
    if (join === void 0) throw badQuery(at, `must be a condition [field, operator, value], { and: [...] } or { or: [...] }, got an object with ${keys.length === 0 ? "no keys" : `the keys ${keys.slice(0, 3).join(", ")}`}`);
    const members = listOf(where[keys[0]], `${at}.${keys[0]}`);
    if (members.length === 0) throw badQuery(`${at}.${keys[0]}`, "is empty: give at least one condition");
    const text = members.map((member, i) => whereText(member, `${at}.${keys[0]}[${i}]`, members.length === 1 && top)).join(join);
    return top || members.length === 1 ? text : `(${text})`;
  }
  throw badQuery(at, `must be a condition [field, operator, value], { and: [...] } or { or: [...] }, got ${describe(where)}`);
}
function conditionText(condition, at) {
  if (condition.length !== 3) throw badQuery(at, `must be [field, operator, value], got an array of ${condition.length}`);
  const field = fieldName(condition[0], `${at}[0]`, true);
  const op = condition[1];
  if (typeof op !== "string" || !OPERATORS.includes(op)) throw badQuery(`${at}[1]`, `must be one of ${OPERATORS.join(" ")}, got ${describe(op)}`);
  const value = condition[2];
  if (op !== "cb") return `${field}:${op}:${valueText(value, `${at}[2]`)}`;
  if (!Array.isArray(value) || value.length !== 2) throw badQuery(`${at}[2]`, `must be [low, high] for cb (between), got ${describe(value)}`);
  const [low, high] = value.map((v, i) => valueText(v, `${at}[2][${i}]`));
  if (low.includes("$") || high.includes("$")) throw badQuery(`${at}[2]`, 'holds a "$", which separates the two values of cb');
  return `${field}:cb:${low}$${high}`;
}
function valueText(value, at) {
  let text;
  if (typeof value === "string") text = value;
  else if (typeof value === "number") {
    if (!Number.isFinite(value)) throw badQuery(at, `must be a finite number, got ${describe(value)}`);
    text = String(value);
  } else if (typeof value === "bigint") text = String(value);
  else if (isObject(value)) text = keyText(value, at);
  else throw badQuery(at, `must be text, a number or a key, got ${describe(value)}`);
  if (GRAMMAR.test(text)) throw badQuery(at, `holds "${GRAMMAR.exec(text)[0]}", which the where grammar uses (& and, | or, parentheses) and cannot escape: narrow with another operator (sw, cv) instead`);
  return text;
}
function keyText(key, at) {
  const part = (name) => {
    const value = key[name];
    if (typeof value === "string") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    throw badQuery(`${at}.${name}`, `must be ${name === "xx" ? "a number" : "a string"}, got ${describe(value)}`);
  };
  const parts = [part("tk"), part("ts"), part("at")];
  if (key["dt"] !== void 0) parts.push(part("dt"));
  if (key["xx"] !== void 0 || key["cp"] !== void 0) {
    const cp = key["cp"];
    if (cp !== "Call" && cp !== "Put") throw badQuery(`${at}.cp`, `must be "Call" or "Put", got ${describe(cp)}`);
    parts.push(part("xx"), cp === "Call" ? "C" : "P");
  }
  return parts.join("-");
}
function pkeyText(pkey, keyFields) {
  if (typeof pkey === "string") return pkey;
  if (!isObject(pkey)) throw badQuery("pkey", `must be the type's key or its string, got ${describe(pkey)}`);
  const fields = keyFields ?? Object.keys(pkey);
  if (fields.length !== 1 && keyFields === void 0) throw badQuery("pkey", `must hold the type's one key field, got ${fields.length === 0 ? "none" : fields.join(", ")}`);
  return fields.map((field) => {
    const value = pkey[field];
    if (value === void 0) throw badQuery(`pkey.${field}`, "is missing: a key holds all its fields");
    return valueText(value, `pkey.${field}`);
  }).join("|");
}
function orderText(level, at) {
  if (!Array.isArray(level) || level.length < 2 || level.length > 3) throw badQuery(at, `must be [field, 'ASC' | 'DESC'] or [field, 'ASC' | 'DESC', 'ABS'], got ${describe(level)}`);
  const field = fieldName(level[0], `${at}[0]`, true);
  const direction = level[1];
  if (direction !== "ASC" && direction !== "DESC") throw badQuery(`${at}[1]`, `must be "ASC" or "DESC", got ${describe(direction)}`);
  if (level.length === 3 && level[2] !== "ABS") throw badQuery(`${at}[2]`, `must be "ABS" (by absolute value) or left out, got ${describe(level[2])}`);
  return level.length === 3 ? `${field}:${direction}:ABS` : `${field}:${direction}`;
}
function safeExcerpt(text, secrets, max) {
  let safe = text;
  for (const secret of secrets) {
    if (secret === void 0 || secret === "") continue;
    for (const form of /* @__PURE__ */ new Set([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, "+")])) safe = safe.split(form).join("[redacted]");
  }
  const cut = safe.length > max ? `${safe.slice(0, max)}\u2026` : safe;
  return JSON.stringify(cut).slice(1, -1).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
async function fetchAnswer(baseUrl, params, schemas, options) {
  const { apiKey, secret, signal } = options ?? {};
  const secrets = [apiKey, secret];
  const run = options?.fetch ?? globalThis.fetch;
  if (run === void 0) throw new RecordsError("network", "This platform has no global fetch: pass options.fetch.");
  if (typeof baseUrl !== "string" || !/^https?:\/\/[^?#@/]+(\/[^?#]*)?$/.test(baseUrl)) {
    const shown = typeof baseUrl === "string" ? baseUrl.replace(/[?#].*$/s, "?\u2026").replace(/^([a-z]+:\/\/)[^/]*@/i, "$1\u2026@") : baseUrl;
    throw new RecordsError("query", `The base URL must be an http or https URL without user info, a query or a fragment (the query is built from the arguments, the credentials are options.apiKey and options.secret), got ${describe(shown)}.`);
  }
  const request = params;
  const name = request.get("msgType") ?? "";
  const view = request.get("view");
  const sent = globalThis.URLSearchParams;
  const query = new sent(request.toString());
  if (apiKey !== void 0 && apiKey !== "") query.append("apikey", apiKey);
  if (secret !== void 0 && secret !== "") query.append("secret", secret);
  const url = `${baseUrl.replace(/\/+$/, "")}/rest/json?${query.toString()}`;
  let response;
  let text;
  try {
    response = await run(url, signal === void 0 ? { headers: { accept: "application/json" } } : { signal, headers: { accept: "application/json" } });
    text = await response.text();
  } catch (error) {
    if (signal !== void 0 && signal.aborted === true) throw signal.reason ?? error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new RecordsError("network", `The records query of ${quote(name)} got no answer from ${quote(baseUrl)}: ${safeExcerpt(reason, secrets, 200)}.`);
  }
  if (response.status !== 200) {
    const excerpt = safeExcerpt(text.trim(), secrets, 200);
    const hint = response.status === 401 || response.status === 403 ? apiKey === void 0 || apiKey === "" ? " No apiKey was given: pass options.apiKey (and options.secret if the service asks for one)." : " Check options.apiKey and options.secret (not shown here)." : "";
    throw new RecordsError("status", `The records query of ${quote(name)} was answered with HTTP ${response.status}${response.statusText ? ` ${safeExcerpt(response.statusText, secrets, 40)}` : ""}: ${excerpt === "" ? "(no body)" : excerpt}.${hint}`, { status: response.status });
  }
  const answer = orThrow(parseAnswer(text, schemas, options));
  const keep = view === null ? void 0 : ["pkey", ...view.split("|")];
  const c = new Checker(options, void 0);
  answer.records.forEach((element, i) => {
    const { header, message } = element;
    if (header.mTyp !== name) c.bad([i, "header"], "mTyp", `a record of ${quote(name)}, the type asked for`, header.mTyp);
    else if (keep !== void 0) {
      for (const key of Object.keys(message)) if (!keep.includes(key)) delete message[key];
    }
  });
  if (c.count > 0) throw invalid(c, answer.result);
  return answer;
}
export {
  Checker,
  FIELD,
  RecordsError,
  checkQueryResult,
  describe,
  fetchAnswer,
  orThrow,
  parseAnswer,
  pathText,
  protectIntegers,
  queryParams,
  recordSchema,
  tableCheck
};
