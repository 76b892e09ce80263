/**
 * Once per run: a local SMTP server, the provider simulators (Telegram, Baileys, Meta's Graph API for the WhatsApp
 * Cloud API), the built server on a fresh DATA_DIR (embedded database) pointed at them, and a superadmin API token. Everything is stopped and removed in the teardown, also when a spec fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loginThroughApi } from './api.js';
import { readCaptchaSecret } from './captcha.js';
import type { E2eContext } from './context.js';
import { startMailCatcher, type MailCatcher } from './mail.js';
import { ARTIFACTS_DIR, CHROMIUM_PATH, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD } from './paths.js';
import { freePort } from './ports.js';
import { startServer, type RunningServer } from './server.js';
import { startTelegramSimulator, type TelegramSimulator } from './telegram.js';
import { startWabaSimulator, type WabaSimulator } from './waba.js';
import { BAILEYS_FAKE_SOCKET, startBaileysSimulator, type BaileysSimulator } from './whatsapp.js';

export default async function setup(project: TestProject) {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing (apt-get install -y chromium)`);
  fs.rmSync(ARTIFACTS_DIR, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-e2e-'));
  const dataDir = path.join(root, 'data');
  let mail: MailCatcher | undefined;
  let server: RunningServer | undefined;
  let telegram: TelegramSimulator | undefined;
  let whatsapp: BaileysSimulator | undefined;
  let waba: WabaSimulator | undefined;
  const teardown = async () => {
    await server?.stop();
    await telegram?.close();
    await whatsapp?.close();
    await waba?.close();
    await mail?.close();
    fs.rmSync(root, { recursive: true, force: true });
  };

  try {
    mail = await startMailCatcher(path.join(root, 'mail'));
    telegram = await startTelegramSimulator();
    whatsapp = await startBaileysSimulator();
    waba = await startWabaSimulator();
    server = await startServer({
      // Baileys channels open the test fake socket, which talks to the simulator (WhatsApp as the library sees it).
      env: {
        TELEGRAM_API_ROOT: telegram.url,
        BAILEYS_SOCKET_MODULE: BAILEYS_FAKE_SOCKET,
        BAILEYS_SIMULATOR_URL: whatsapp.url,
        // WhatsApp Cloud API channels talk to the Graph simulator (support/waba.ts drives it).
        META_GRAPH_URL: waba.url,
      },
      port: await freePort(),
      dataDir,
      smtpPort: mail.port,
      logFile: path.join(ARTIFACTS_DIR, 'server.log'),
    });
    const captchaSecret = readCaptchaSecret(dataDir);
    const login = await loginThroughApi(server.baseUrl, captchaSecret, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD);
    const provided: E2eContext = {
      baseUrl: server.baseUrl,
      port: server.port,
      dataDir,
      mailDir: mail.dir,
      captchaSecret,
      superadminToken: login.token,
      telegramApiRoot: telegram.url,
      whatsappSimulatorUrl: whatsapp.url,
      graphSimulatorUrl: waba.url,
    };
    project.provide('e2e', provided);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
