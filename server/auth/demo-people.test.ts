/**
 * The stakeholder demo (DEMO_PEOPLE) through the real server: the sign-in page's options list the three
 * demo people with their passwords, each signs in to what their role allows, and a restart brings them
 * back to the demo's passwords, grants and status whatever was changed meanwhile.
 */
import { rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { SignInOptions } from '../../src/contract/access';
import { createSiteAdminServer } from '../app';
import { loadConfig } from '../config';
import { closeServer, listen, REPO_ROOT, send, tempDir } from '../testing/test-helpers';
import { hashPassword } from './password-hash';

const dataDir = tempDir('site-admin-demo-people-');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const env = {
  SITE_PROFILE: join(REPO_ROOT, 'server', 'site-profile.example.json'),
  DEMO_PEOPLE: 'true',
  DATA_DIR: dataDir,
  LOG_REQUESTS: 'false',
};

async function serve() {
  const app = await createSiteAdminServer(loadConfig(env));
  const server = http.createServer((req, res) => app.handle(req, res));
  const port = await listen(server);
  const signIn = async (email: string, password: string) => {
    const reply = await send(port, {
      method: 'POST',
      path: '/api/sign-in/password',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      body: JSON.stringify({ email, password }),
    });
    const cookie = (reply.headers['set-cookie'] ?? [])
      .map((line) => line.split(';')[0] ?? '')
      .find((pair) => pair.startsWith('site_admin_session='));
    return { status: reply.status, cookie: cookie ?? '' };
  };
  const sites = async (cookie: string) => {
    const reply = await send(port, { path: '/api/sites', headers: { cookie } });
    return (JSON.parse(reply.text) as { sites: { id: string; can: string[] }[] }).sites.map(({ id, can }) => `${id}:${can.join('+')}`);
  };
  const options = async () => JSON.parse((await send(port, { path: '/api/sign-in' })).text) as SignInOptions;
  return {
    app,
    port,
    signIn,
    sites,
    options,
    stop: async () => {
      await closeServer(server);
      await app.close();
    },
  };
}

it('lists three demo people with their passwords; each signs in to what their role allows; a restart puts them back as they were', async () => {
  const first = await serve();
  const { demoPeople } = await first.options();
  expect(demoPeople.map(({ email, description }) => ({ email, description }))).toEqual([
    { email: 'olivia@demo.example', description: 'Owner of every site; manages people' },
    { email: 'eddie@demo.example', description: 'Editor of Harbour Linen only' },
    { email: 'sam@demo.example', description: 'Support on Harbour Linen and Summit Outfitters' },
  ]);
  const [owner, editor, support] = demoPeople;
  if (!owner || !editor || !support) throw new Error('three demo people');
  // Signing in is required: the demo people are people, so this is no local demo.
  expect((await send(first.port, { path: '/api/sites' })).status).toBe(401);

  const asOwner = await first.signIn(owner.email, owner.password);
  const asEditor = await first.signIn(editor.email, editor.password);
  const asSupport = await first.signIn(support.email, support.password);
  expect([asOwner.status, asEditor.status, asSupport.status]).toEqual([200, 200, 200]);
  expect(await first.sites(asOwner.cookie)).toEqual(['harbour-linen:lookup+create+export', 'summit-outfitters:lookup+create+export']);
  expect(await first.sites(asEditor.cookie)).toEqual(['harbour-linen:lookup+create+export']);
  expect(await first.sites(asSupport.cookie)).toEqual(['harbour-linen:lookup', 'summit-outfitters:lookup']);

  // Meanwhile someone changes the editor's password, makes support an owner and disables the owner.
  const { people } = first.app.accounts;
  const t = Date.now();
  const [eddie, sam, olivia] = await Promise.all([editor, support, owner].map((person) => people.getByEmail(person.email)));
  await people.setPasswordHash(eddie?.id ?? '', await hashPassword('another long passphrase here'), t);
  await people.setGrants(sam?.id ?? '', [{ siteId: '*', role: 'owner' }], t);
  await people.setDisabled(olivia?.id ?? '', true, t);
  await first.stop();

  const second = await serve();
  try {
    expect((await second.options()).demoPeople).toEqual(demoPeople);
    const again = await Promise.all([owner, editor, support].map((person) => second.signIn(person.email, person.password)));
    expect(again.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await second.sites(again[2]?.cookie ?? '')).toEqual(['harbour-linen:lookup', 'summit-outfitters:lookup']);
    expect(await second.app.accounts.people.count()).toBe(3);
  } finally {
    await second.stop();
  }
});

it('without DEMO_PEOPLE the sign-in page lists nobody', async () => {
  const dir = tempDir('site-admin-no-demo-');
  try {
    const app = await createSiteAdminServer(loadConfig({ ...env, DEMO_PEOPLE: 'false', DATA_DIR: dir }));
    const server = http.createServer((req, res) => app.handle(req, res));
    const port = await listen(server);
    try {
      expect((JSON.parse((await send(port, { path: '/api/sign-in' })).text) as SignInOptions).demoPeople).toEqual([]);
    } finally {
      await closeServer(server);
      await app.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
