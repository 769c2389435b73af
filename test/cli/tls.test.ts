// A failed TLS connection is said in one clear line, the same in every command that fetches (issue
// 23), never as OpenSSL's text ("self-signed certificate", "unable to verify the first certificate",
// "write EPROTO …:SSL routines:…"). The server uses the self-signed certificate of test/fixtures/tls.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { tlsFailureMessage } from '../../src/node/http/client.js';

const TLS = new URL('../fixtures/tls/', import.meta.url);
const LOCAL = ['--allow-private', '--retries', '0'];

describe('a self-signed certificate', () => {
  let server: Server;
  let origin = '';
  before(async () => {
    server = createServer({ key: readFileSync(new URL('self-signed.key', TLS)), cert: readFileSync(new URL('self-signed.crt', TLS)) }, (_req, res) => {
      res.end('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is one line naming the host in validate, read and discover', async () => {
    const said = new RegExp(`TLS: the certificate of 127\\.0\\.0\\.1:\\d+ is self-signed; crawlers do not trust it \\(use one from a public certificate authority, such as Let's Encrypt\\)`);
    for (const command of ['validate', 'read', 'discover']) {
      const result = await runCli([command, `${origin}/sitemap.xml`, ...LOCAL, ...(command === 'discover' ? ['--format', 'urls'] : [])], { cwd: tempDir() });
      assert.notEqual(result.code, 0, command);
      const lines = result.stderr.split('\n').filter((line) => line.includes('TLS'));
      assert.equal(lines.length, 1, `${command}: ${result.stderr}`);
      assert.match(lines[0] as string, said, command);
      assert.doesNotMatch(result.stderr, /self-signed certificate|TLS handshake failed/, command);
    }
  });
});

describe('tlsFailureMessage', () => {
  it('says what is wrong with the certificate, and what to do', () => {
    const host = 'www.example.com';
    assert.equal(tlsFailureMessage('CERT_HAS_EXPIRED', host, 'certificate has expired'), 'TLS: the certificate of www.example.com has expired; renew it');
    assert.equal(
      tlsFailureMessage('ERR_TLS_CERT_ALTNAME_INVALID', 'www.example.com:8443', "Hostname/IP does not match certificate's altnames: Host: www.example.com. is not in the cert's altnames: DNS:example.org"),
      'TLS: the certificate of www.example.com:8443 is for other names than www.example.com; use one that names it',
    );
    assert.match(tlsFailureMessage('UNABLE_TO_VERIFY_LEAF_SIGNATURE', host, 'unable to verify the first certificate'), /^TLS: the certificate of www\.example\.com cannot be verified: .*serve the full chain\)$/);
    assert.equal(tlsFailureMessage('CERT_SIGNATURE_FAILURE', host, 'certificate signature failure'), 'TLS: the certificate of www.example.com is not trusted (CERT_SIGNATURE_FAILURE)');
  });

  it('a handshake that fails: OpenSSL\'s reason, without its dump', () => {
    const dump = 'write EPROTO 40E7A1F6:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:354:\n';
    assert.equal(tlsFailureMessage('EPROTO', '127.0.0.1:8080', dump), 'TLS handshake failed: no TLS session with 127.0.0.1:8080 (wrong version number); the port may speak plain http, not https');
    assert.equal(
      tlsFailureMessage('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', 'e.com', 'C0:error:0A00042E:SSL routines:ssl3_read_bytes:tlsv1 alert protocol version:ssl/record/rec_layer_s3.c:1586:SSL alert number 70'),
      'TLS handshake failed: no TLS session with e.com (tlsv1 alert protocol version)',
    );
  });
});
