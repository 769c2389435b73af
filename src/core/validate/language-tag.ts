// hreflang values: `x-default`, or an RFC 5646 language tag (§2.1; no grandfathered tags) of the kind
// Google reads (Search Central, "Supported language/region codes"). Two-letter languages and regions
// are checked against the ISO lists, where the common mistakes are (`en-UK`, `US`); the rest for syntax
// only. Casing alone is never a problem (§2.1.1); a suggested fix uses the canonical casing.

import { show } from '../errors.js';

/** What is wrong with a hreflang value, and the corrected value when it can be derived. */
export interface LanguageTagProblem {
  message: string;
  /** The corrected value in canonical casing, when every problem has a known correction. */
  fix?: string;
}

// ISO 639-1: the 184 two-letter codes of the Library of Congress ISO 639-2 table.
const ISO_639_1 = new Set(
  ('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de ' +
    'dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ' +
    'ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg ' +
    'mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ' +
    'ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ' +
    'ug uk ur uz ve vi vo wa wo xh yi yo za zh zu').split(' '),
);

// Withdrawn ISO 639-1 codes old software still writes (Java's `iw`), with the IANA registry's Preferred-Values.
const WITHDRAWN_LANGUAGES: Readonly<Record<string, string>> = { in: 'id', iw: 'he', ji: 'yi', jw: 'jv', mo: 'ro' };

// ISO 3166-1 alpha-2: the 249 officially assigned country codes.
const ISO_3166_1 = new Set(
  ('AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW ' +
    'BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI ' +
    'FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN ' +
    'IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME ' +
    'MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF ' +
    'PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV ' +
    'SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE ' +
    'YT ZA ZM ZW').split(' '),
);

// `UK` is only "exceptionally reserved" in ISO 3166-1; Google names `en-UK` as a common mistake.
const REGION_CORRECTIONS: Readonly<Record<string, string>> = { UK: 'GB' };

const ALPHA = /^[A-Za-z]+$/;
const DIGITS = /^[0-9]+$/;
const ALPHANUMERIC = /^[A-Za-z0-9]+$/;
const WHITESPACE = /\s/;

type Role = 'language' | 'extlang' | 'script' | 'region' | 'variant' | 'singleton' | 'extension' | 'privateuse';

interface Subtag {
  text: string;
  role: Role;
}

interface Finding {
  message: string;
  /** Whether the correction has been applied. */
  corrected: boolean;
}

/** The problem with `tag` as a hreflang value, or undefined when it is a value Google understands. */
export function languageTagProblem(tag: string): LanguageTagProblem | undefined {
  if (tag.trim() === '') return { message: 'the value is empty; it must be a language code such as "en", or "x-default"' };

  const findings: Finding[] = [];
  let text = tag;
  if (WHITESPACE.test(text)) {
    const trimmed = text.trim();
    if (trimmed !== text) findings.push({ message: 'it has white space around it', corrected: true });
    if (WHITESPACE.test(trimmed)) findings.push({ message: 'it has white space inside; subtags are separated by "-"', corrected: true });
    text = trimmed.replace(/\s+/g, '-');
  }
  if (text.includes('_')) {
    // RFC 5646 §2.1: subtags are separated by hyphens. `en_US` is the POSIX locale spelling.
    findings.push({ message: '"_" separates the subtags; BCP 47 separates them with "-"', corrected: true });
    text = text.replace(/_/g, '-');
  }
  if (text.toLowerCase() === 'x-default') return result(findings, [{ text: 'x-default', role: 'privateuse' }]);

  const parsed = parse(text);
  if (typeof parsed === 'string') return { message: [...findings.map((f) => f.message), parsed].join('; ') };
  findings.push(...meaningFindings(parsed));
  return result(findings, parsed);
}

function result(findings: readonly Finding[], subtags: Subtag[]): LanguageTagProblem | undefined {
  if (findings.length === 0) return undefined;
  const message = findings.map((f) => f.message).join('; ');
  if (findings.some((f) => !f.corrected)) return { message };
  return { message, fix: subtags.map(canonicalCase).join('-') };
}

// RFC 5646 §2.1.1: lowercase, except titlecase scripts and uppercase two-letter regions.
function canonicalCase(subtag: Subtag): string {
  const lower = subtag.text.toLowerCase();
  if (subtag.role === 'script') return lower.charAt(0).toUpperCase() + lower.slice(1);
  if (subtag.role === 'region') return lower.toUpperCase();
  return lower;
}

/** Splits `text` per RFC 5646 §2.1 (langtag, privateuse); or says what is wrong. */
function parse(text: string): Subtag[] | string {
  const parts = text.split('-');
  for (const part of parts) {
    if (part === '') return `${show(text, 40)} has an empty subtag; subtags are separated by a single "-"`;
    if (!ALPHANUMERIC.test(part)) return `${show(part, 40)} has characters other than ASCII letters and digits (RFC 5646 §2.1)`;
    if (part.length > 8) return `${show(part, 40)} is longer than 8 characters, the most a subtag may have (RFC 5646 §2.1)`;
  }

  const first = parts[0] as string;
  // A private-use tag (RFC 5646 §2.2.7) is well-formed, but names no language anyone else knows.
  if (first.toLowerCase() === 'x') return `${show(text, 40)} is a private-use tag; it names no language`;
  if (DIGITS.test(first)) {
    return first.length === 3
      ? `${show(first)} is a region (UN M.49), not a language; a hreflang value starts with a language, as in "es-419"`
      : `${show(first)} is not a language; a hreflang value starts with a language such as "en"`;
  }
  if (!ALPHA.test(first)) return `${show(first)} is not a language; a language subtag has letters only`;
  if (first.length === 1) return `${show(first)} is not a language; a language subtag has 2 or 3 letters`;

  const subtags: Subtag[] = [{ text: first, role: 'language' }];
  let i = 1;
  // RFC 5646 §2.2.2: up to three extended language subtags follow a 2- or 3-letter language.
  while (first.length <= 3 && i < parts.length && i <= 3 && isAlpha(parts[i] as string, 3)) subtags.push({ text: parts[i++] as string, role: 'extlang' });
  if (i < parts.length && isAlpha(parts[i] as string, 4)) subtags.push({ text: parts[i++] as string, role: 'script' });
  if (i < parts.length && (isAlpha(parts[i] as string, 2) || isDigits(parts[i] as string, 3))) subtags.push({ text: parts[i++] as string, role: 'region' });

  // RFC 5646 §2.2.5: variants are 5–8 alphanumerics, or a digit and 3 alphanumerics; §2.2.9: none twice.
  const variants = new Set<string>();
  while (i < parts.length && isVariant(parts[i] as string)) {
    const variant = (parts[i++] as string).toLowerCase();
    if (variants.has(variant)) return `the variant ${show(variant)} appears twice (RFC 5646 §2.2.9)`;
    variants.add(variant);
    subtags.push({ text: variant, role: 'variant' });
  }

  // RFC 5646 §2.2.6: extensions, a singleton other than `x` and subtags of 2–8; §2.2.9: none twice.
  const singletons = new Set<string>();
  while (i < parts.length && (parts[i] as string).length === 1 && (parts[i] as string).toLowerCase() !== 'x') {
    const singleton = (parts[i++] as string).toLowerCase();
    if (singletons.has(singleton)) return `the extension ${show(singleton)} appears twice (RFC 5646 §2.2.9)`;
    singletons.add(singleton);
    subtags.push({ text: singleton, role: 'singleton' });
    const start = i;
    while (i < parts.length && (parts[i] as string).length >= 2) subtags.push({ text: parts[i++] as string, role: 'extension' });
    if (i === start) return `the extension ${show(singleton)} has no subtag after it (RFC 5646 §2.2.6)`;
  }

  // RFC 5646 §2.2.7: private use comes last: `x` and one or more subtags of 1–8 alphanumerics.
  if (i < parts.length && (parts[i] as string).toLowerCase() === 'x') {
    subtags.push({ text: 'x', role: 'singleton' });
    i++;
    if (i === parts.length) return `the private-use part ${show('x')} has no subtag after it (RFC 5646 §2.2.7)`;
    while (i < parts.length) subtags.push({ text: parts[i++] as string, role: 'privateuse' });
  }

  if (i < parts.length) {
    return `${show(parts[i] as string)} is out of place in ${show(text, 40)}; the order is language, script, region, variants (RFC 5646 §2.1)`;
  }
  return subtags;
}

/** Problems of a well-formed tag: its language and region must be ones that exist. Corrects `subtags` where it can. */
function meaningFindings(subtags: Subtag[]): Finding[] {
  const findings: Finding[] = [];
  const language = (subtags[0] as Subtag).text.toLowerCase();
  if (language.length === 2 && !ISO_639_1.has(language)) {
    const replacement = WITHDRAWN_LANGUAGES[language];
    if (replacement !== undefined) {
      findings.push({ message: `${show(language)} is a withdrawn language code; ${show(replacement)} replaces it`, corrected: true });
      (subtags[0] as Subtag).text = replacement;
    } else if (subtags.length === 1 && ISO_3166_1.has(language.toUpperCase())) {
      findings.push({ message: `${show(language.toUpperCase())} is a country, not a language; a hreflang value starts with a language, as in "en-${language.toUpperCase()}"`, corrected: false });
    } else {
      findings.push({ message: `${show(language)} is not an ISO 639-1 language code`, corrected: false });
    }
  } else if (language.length === 4) {
    // RFC 5646 §2.2.1: four-letter language subtags are reserved for future use.
    findings.push({ message: `${show(language)} is not a language; 4-letter language subtags are reserved (RFC 5646 §2.2.1)`, corrected: false });
  } else if (language.length >= 5) {
    // RFC 5646 §2.2.1: 5–8 letters only for registered languages; the IANA registry has none.
    findings.push({ message: `${show(language)} is not a language code; use the ISO 639-1 code, such as "en" for English`, corrected: false });
  }

  const region = subtags.find((s) => s.role === 'region');
  if (region !== undefined && ALPHA.test(region.text)) {
    const code = region.text.toUpperCase();
    const correction = REGION_CORRECTIONS[code];
    if (correction !== undefined) {
      findings.push({ message: `${show(code)} is not a country code; use ${show(correction)} (ISO 3166-1)`, corrected: true });
      region.text = correction;
    } else if (!ISO_3166_1.has(code)) {
      findings.push({ message: `${show(code)} is not an ISO 3166-1 country code`, corrected: false });
    }
  }
  return findings;
}

function isAlpha(part: string, length: number): boolean {
  return part.length === length && ALPHA.test(part);
}

function isDigits(part: string, length: number): boolean {
  return part.length === length && DIGITS.test(part);
}

function isVariant(part: string): boolean {
  return part.length >= 5 || (part.length === 4 && part.charCodeAt(0) >= 0x30 && part.charCodeAt(0) <= 0x39);
}
