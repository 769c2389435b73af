// The settings of validation, as `validate` and `report` take them: the options over the config file.

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { toSitemapDate } from '../core/datetime.js';
import type { LimitsProfileName } from '../core/model.js';
import { VALIDATION_RULES } from '../core/validate/rules.js';
import { RULE_SETTINGS, type RuleSetting } from '../core/validate/validator.js';
import { ioErrorReason, parseJsonFile } from '../node/io-errors.js';
import { asUsage, UsageError } from './args.js';
import { closestName, type ParsedArgs } from './command.js';

const DEFAULT_CONFIG = 'sitemapkit.config.json';

interface Config {
  rules: Record<string, RuleSetting>;
  limits?: LimitsProfileName;
  location?: string;
  maxWarnings?: number;
}

function ruleSetting(code: string, value: unknown, where: string): RuleSetting {
  const meant = VALIDATION_RULES.has(code) ? code : closestName(code, [...VALIDATION_RULES.keys()]);
  if (meant !== code) throw new UsageError(`${where}: unknown rule ${JSON.stringify(code)} (${meant === undefined ? '' : `did you mean ${meant}? `}the codes are listed in docs/rules.md)`);
  if (typeof value !== 'string' || !(RULE_SETTINGS as readonly string[]).includes(value)) {
    throw new UsageError(`${where}: the level of ${code} must be one of ${RULE_SETTINGS.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as RuleSetting;
}

function readConfig(path: string): Config {
  let data: unknown;
  try {
    // A byte order mark (Notepad writes one) is skipped; a syntax error is placed at FILE:LINE:COL, as every other problem is.
    data = parseJsonFile(path, readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(error instanceof SyntaxError ? error.message : `cannot read ${path}: ${ioErrorReason(error)}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new UsageError(`${path}: the settings must be a JSON object`);
  const config: Config = { rules: {} };
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    switch (key) {
      case 'rules':
        if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${path}: "rules" must be an object of code: level`);
        for (const [code, level] of Object.entries(value as Record<string, unknown>)) config.rules[code] = ruleSetting(code, level, path);
        break;
      case 'limits': {
        const limits = String(value);
        if (limits !== 'current' && limits !== 'legacy') throw new UsageError(`${path}: "limits" must be one of current, legacy, got ${JSON.stringify(limits)}`);
        config.limits = limits;
        break;
      }
      // "baseUrl" as the option is spelled (--base-url); "location", its old spelling, kept.
      case 'baseUrl':
      case 'location':
        if (typeof value !== 'string') throw new UsageError(`${path}: "${key}" must be a URL string`);
        config.location = value;
        break;
      case 'maxWarnings':
        if (!Number.isInteger(value) || (value as number) < 0) throw new UsageError(`${path}: "maxWarnings" must be a whole number`);
        config.maxWarnings = value as number;
        break;
      default:
        throw new UsageError(`${path}: unknown setting ${JSON.stringify(key)} (rules, limits, baseUrl, maxWarnings)`);
    }
  }
  return config;
}

function location(value: string, flag: string): string {
  if (!URL.canParse(value)) throw new UsageError(`${flag} must be an absolute URL, got ${JSON.stringify(value)}`);
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http or https URL, got ${JSON.stringify(value)}`);
  return url.href;
}

export interface ValidationSettings extends Config {
  /** --now, in epoch milliseconds. */
  now?: number;
}

/** The settings `args` give, over the config file's. */
export function validationSettings(args: ParsedArgs, cwd: string): ValidationSettings {
  const configOption = args.text('config');
  const configPath = resolve(cwd, configOption ?? DEFAULT_CONFIG);
  const config: ValidationSettings = configOption !== undefined || existsSync(configPath) ? readConfig(configPath) : { rules: {} };
  const limits = args.choice<LimitsProfileName>('limits');
  if (limits !== undefined) config.limits = limits;
  const baseUrl = args.text('base-url');
  if (baseUrl !== undefined) config.location = location(baseUrl, '--base-url');
  else if (config.location !== undefined) config.location = location(config.location, 'the config file\'s "location"');
  for (const r of args.list('rule')) {
    const eq = r.indexOf('=');
    if (eq < 1) throw new UsageError(`--rule needs CODE=LEVEL, got ${JSON.stringify(r)}`);
    config.rules[r.slice(0, eq)] = ruleSetting(r.slice(0, eq), r.slice(eq + 1), '--rule');
  }
  const nowText = args.text('now');
  // A W3C Datetime, as a lastmod: Date.parse took 2024-02-30 for March 1st, and "1" for 2001.
  if (nowText !== undefined) config.now = asUsage(() => toSitemapDate(nowText, '--now')).epochMs;
  return config;
}
