// A real OpenID Connect provider (the certified oidc-provider package) on loopback for the sign-in tests.
// Usage: node provider.mjs <dashboard base URL>
// GET /test/rename?account=<login>&name=<display name> renames an account, as a person renames themselves at the
// provider: the subject stays, the `name` claim of the next sign-in changes.
// Listens on a free port and prints "issuer <url>" once it answers. Accounts are the login names below (any
// password); each holds the `roles` claim values the tests map to the dashboard's roles. Stops with its parent's
// standard input (the test closes it), so a crashed test leaves no provider behind.
import Provider from 'oidc-provider';

const dashboard = process.argv[2];
if (!dashboard) {
  console.error('usage: node provider.mjs <dashboard base URL>');
  process.exit(2);
}

const accounts = {
  viewer: { name: 'Vera Viewer', roles: ['ifi-viewers'] },
  operator: { name: 'Otto Operator', roles: ['ifi-operators'] },
  admin: { name: 'Ada Admin', roles: ['ifi-admins'] },
  nobody: { name: 'Nina Norole', roles: [] },
  // Two people who share a display name, as namesakes do.
  'sam-a': { name: 'Sam Taylor', roles: ['ifi-operators'] },
  'sam-b': { name: 'Sam Taylor', roles: ['ifi-operators'] },
};

const configuration = {
  clients: [{
    client_id: 'ifi-dashboard',
    client_secret: 'oidc-test-client-secret-0123456789',
    redirect_uris: [new URL('/signin-oidc', dashboard).href],
    post_logout_redirect_uris: [new URL('/signout-callback-oidc', dashboard).href],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_post',
  }],
  claims: { openid: ['sub'], profile: ['name', 'roles'] },
  // The claims go into the ID token itself, as Entra ID does with `roles`.
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  cookies: { keys: ['oidc-test-cookie-key-not-a-secret'] },
  async findAccount(ctx, id) {
    const account = accounts[id];
    if (!account) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, name: account.name, roles: account.roles }) };
  },
  // First-party client: consent is implied, so the browser goes from the login form straight back.
  async loadExistingGrant(ctx) {
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid profile');
    await grant.save();
    return grant;
  },
};

const server = (await import('node:http')).createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();
  server.on('request', (req, res) => {
    const url = new URL(req.url, issuer);
    if (url.pathname !== '/test/rename') return callback(req, res);
    const account = accounts[url.searchParams.get('account')];
    if (!account) { res.statusCode = 404; return res.end('no such account'); }
    account.name = url.searchParams.get('name');
    return res.end('renamed');
  });
  console.log(`issuer ${issuer}`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
