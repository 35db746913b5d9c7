import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

/**
 * A certificate authority made at test or bench time, so HTTPS subscriber servers present
 * certificates the hub trusts through `NODE_EXTRA_CA_CERTS`, with TLS verification left on. It
 * lives with the bench because scripts may not import from test/; the tests' global set-up uses it.
 */

export interface KeyAndCert {
  key: string;
  cert: string;
}

interface Authority extends KeyAndCert {
  forgeKey: forge.pki.rsa.PrivateKey;
  forgeCert: forge.pki.Certificate;
}

/** RSA keys come from node:crypto (native, fast); node-forge only assembles and signs certificates. */
function keyPair(): { publicKey: forge.pki.rsa.PublicKey; privateKey: forge.pki.rsa.PrivateKey; keyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
  });
  return {
    publicKey: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey,
    privateKey: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey,
    keyPem: privateKey,
  };
}

function baseCert(publicKey: forge.pki.rsa.PublicKey): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive serial: the high bit of the first byte must be clear.
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 7 * 86_400_000);
  return cert;
}

export function createAuthority(commonName: string): Authority {
  const { publicKey, privateKey, keyPem } = keyPair();
  const cert = baseCert(publicKey);
  const subject = [{ name: "commonName", value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(privateKey, forge.md.sha256.create());
  return { key: keyPem, cert: forge.pki.certificateToPem(cert), forgeKey: privateKey, forgeCert: cert };
}

/** A server certificate for `dnsNames` and `ips`, signed by `issuer` (or self-signed when omitted). */
export function issueServerCert(opts: { dnsNames: string[]; ips: string[]; issuer?: Authority }): KeyAndCert {
  const { publicKey, privateKey, keyPem } = keyPair();
  const cert = baseCert(publicKey);
  cert.setSubject([{ name: "commonName", value: opts.dnsNames[0] ?? opts.ips[0] ?? "test" }]);
  cert.setIssuer(opts.issuer ? opts.issuer.forgeCert.subject.attributes : cert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: [...opts.dnsNames.map((value) => ({ type: 2, value })), ...opts.ips.map((ip) => ({ type: 7, ip }))],
    },
  ]);
  cert.sign(opts.issuer?.forgeKey ?? privateKey, forge.md.sha256.create());
  return { key: keyPem, cert: forge.pki.certificateToPem(cert) };
}
