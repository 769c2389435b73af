// validate's and report's settings (cli/validation-settings.ts): a mistyped rule code is a usage error that names the code meant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../src/cli/args.js';
import { parseCommand } from '../../src/cli/command.js';
import { REPORT, VALIDATE } from '../../src/cli/declarations.js';
import { validationSettings } from '../../src/cli/validation-settings.js';
import { tempDir } from '../helpers/tmp.js';

test('a rule code one typo away, on the command line or in the config file, is refused with the code meant; one far from every code is not guessed at', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'typo.json'), '{"rules": {"lastmod/futur": "off"}}');
  const refused = (argv: string[]): string => {
    try {
      validationSettings(parseCommand(VALIDATE, argv), dir);
    } catch (error) {
      assert.ok(error instanceof UsageError);
      return error.message;
    }
    assert.fail('accepted');
  };
  assert.equal(refused(['--rule', 'loc/duplicat=off']), '--rule: unknown rule "loc/duplicat" (did you mean loc/duplicate? the codes are listed in docs/rules.md)');
  assert.equal(refused(['--config', 'typo.json']), `${join(dir, 'typo.json')}: unknown rule "lastmod/futur" (did you mean lastmod/future? the codes are listed in docs/rules.md)`);
  assert.equal(refused(['--rule', 'no/such=off']), '--rule: unknown rule "no/such" (the codes are listed in docs/rules.md)');
  assert.deepEqual(validationSettings(parseCommand(REPORT, ['--rule', 'loc/duplicate=off']), dir).rules, { 'loc/duplicate': 'off' });
});
