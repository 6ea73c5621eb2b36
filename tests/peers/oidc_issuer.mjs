// A real OpenID provider (the npm `oidc-provider` package) for hintgate's identity tests.
//
// Usage: node oidc_issuer.mjs PORT
// Prints "ready" once it listens on 127.0.0.1:PORT; its issuer is http://127.0.0.1:PORT.
//
// People: alice (group readers), bob (group devs), carol (group dba), each with a verified email; and three
// accounts that try to pass for others: mallory (no email, username "alice@example.com"), eve (email
// "alice@example.com", not verified), trudy (username "api-token"). Each is also a client of the
// client_credentials grant (client id = the name, secret = NAME-secret), so a test or an SDK client gets a
// token for a person without a browser; the token's audience is the `resource` asked for (RFC 8707), signed
// with RS256 as a JWT, and carries the person's email and groups. The authorization code grant with PKCE
// works too (client `dashboard`), through the package's own development login page (any password).
//
// Test controls, only in this script:
//   POST /test/rotate             replace the signing key with a new one (new kid; the old one is gone)
//   POST /test/sign  {claims, header}  a JWT with these claims signed by the current key (e.g. exp in the past);
//                                 `header` adds to or replaces the header's fields (a null value removes one)
//   GET  /test/kid                the current key's id
import http from "node:http";
import crypto from "node:crypto";
import Provider from "oidc-provider";

const port = Number(process.argv[2]);
const issuer = `http://127.0.0.1:${port}`;

const people = {
  alice: { email: "alice@example.com", email_verified: true, groups: ["readers"] },
  bob: { email: "bob@example.com", email_verified: true, groups: ["devs"] },
  carol: { email: "carol@example.com", email_verified: true, groups: ["dba"] },
  // Accounts that try to pass for alice: no email but her address as username, her address unverified,
  // and a username that is the gateway's own name for its API token.
  mallory: { preferred_username: "alice@example.com", groups: ["readers"] },
  eve: { email: "alice@example.com", email_verified: false, groups: ["readers"] },
  trudy: { preferred_username: "api-token", groups: [] },
};

function newKey() {
  const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = privateKey.export({ format: "jwk" });
  return { privateKey, jwk: { ...jwk, kid: crypto.randomBytes(8).toString("hex"), alg: "RS256", use: "sig" } };
}

function claimsOf(name) {
  const person = people[name];
  if (!person) return {};
  const claims = { groups: person.groups, preferred_username: person.preferred_username ?? name };
  if (person.email) Object.assign(claims, { email: person.email, email_verified: person.email_verified });
  return claims;
}

function build(key) {
  const clients = Object.keys(people).map((name) => ({
    client_id: name,
    client_secret: `${name}-secret`,
    grant_types: ["client_credentials"],
    redirect_uris: [],
    response_types: [],
  }));
  clients.push({
    client_id: "dashboard",
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code"],
    response_types: ["code"],
    redirect_uris: (process.env.OIDC_REDIRECT_URIS || "").split(" ").filter(Boolean),
  });
  const provider = new Provider(issuer, {
    clients,
    jwks: { keys: [key.jwk] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["preferred_username"], groups: ["groups"] },
    scopes: ["openid", "email", "profile", "groups", "mcp"],
    findAccount: (_ctx, id) =>
      people[id] ? { accountId: id, claims: () => ({ sub: id, ...claimsOf(id) }) } : undefined,
    extraTokenClaims: (_ctx, token) => claimsOf(token.accountId ?? token.clientId),
    pkce: { required: () => true },
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          audience: resource,
          scope: "openid email profile groups mcp",
          accessTokenTTL: 600,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
  });
  provider.proxy = false;
  return provider;
}

let key = newKey();
let provider = build(key);
let handler = provider.callback();

function b64(value) {
  return Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
}

function body(req) {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => resolve(text ? JSON.parse(text) : {}));
  });
}

function answer(res, value) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

const server = http.createServer(async (req, res) => {
  if (req.method === "POST" && req.url === "/test/rotate") {
    key = newKey();
    provider = build(key);
    handler = provider.callback();
    return answer(res, { kid: key.jwk.kid });
  }
  if (req.method === "GET" && req.url === "/test/kid") {
    return answer(res, { kid: key.jwk.kid });
  }
  if (req.method === "POST" && req.url === "/test/sign") {
    const { claims, header } = await body(req);
    const fields = { alg: "RS256", typ: "at+jwt", kid: key.jwk.kid, ...(header || {}) };
    for (const name of Object.keys(fields)) if (fields[name] === null) delete fields[name];
    const signing = `${b64(fields)}.${b64({ iss: issuer, ...claims })}`;
    const signature = crypto.sign("sha256", Buffer.from(signing), key.privateKey).toString("base64url");
    return answer(res, { token: `${signing}.${signature}` });
  }
  return handler(req, res);
});

server.listen(port, "127.0.0.1", () => console.log("ready"));
