/** Isolation cases of quick messages (`/fastreply`) and their public files (`/public/{tenantId}/{media}`). */
import { MARK, type IsolationFeature } from '../support/isolation-cases.js';

const seeded = { id: 0, media: '' };

export const feature: IsolationFeature = {
  async seed({ t, owner }) {
    const boundary = '----isolationquick';
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = Buffer.concat([
      Buffer.from(part('key', 'vitima') + part('message', `${MARK} mensagem`)),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      Buffer.from('89504e47', 'hex'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/fastreply',
      payload,
      headers: { ...owner.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    const created = res.json<{ id: number; media: string }>();
    seeded.id = created.id;
    seeded.media = created.media;
  },
  cases: ({ intruder }) => ({
    'GET /api/fastreply': { list: [['GET', '/fastreply']] },
    'POST /api/fastreply': { own: [['POST', '/fastreply', { key: 'vitima', message: `${MARK} mensagem` }]] },
    'PUT /api/fastreply/:id': {
      owned: [
        ['PUT', `/fastreply/${seeded.id}`, { key: 'roubada', message: 'x' }],
        ['PUT', `/fastreply/${seeded.id}`, { key: 'roubada', message: 'x', removeMedia: true }],
      ],
    },
    'DELETE /api/fastreply/:id': { owned: [['DELETE', `/fastreply/${seeded.id}`]] },
    // The file is public by its random name under its own tenant; under another tenant's id it is not found.
    'GET /api/public/:tenantId/:media': { owned: [['GET', `/public/${intruder.tenantId}/${seeded.media}`]] },
  }),
};
