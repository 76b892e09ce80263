import { describe, expect, it } from 'vitest';
import {
  buildComponents,
  emptyTemplateValues,
  fillText,
  parseTemplate,
  templateFields,
  validateTemplate,
  variablesOf,
} from './waba-template';

const order = parseTemplate([
  { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
  { type: 'BODY', text: 'Olá {{1}}, seu pedido {{2}} saiu. {{1}}, obrigado!' },
  { type: 'FOOTER', text: 'Loja Exemplo' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'QUICK_REPLY', text: 'Falar com atendente' },
      { type: 'URL', text: 'Rastrear', url: 'https://loja.test/r/{{1}}' },
    ],
  },
]);

describe('waba templates', () => {
  it('reads header, body, footer and buttons, skipping components it cannot read', () => {
    expect(order.header).toEqual({ format: 'TEXT', text: 'Pedido {{1}}' });
    expect(order.footer).toBe('Loja Exemplo');
    expect(order.buttons.map((b) => b.type)).toEqual(['QUICK_REPLY', 'URL']);
    expect(parseTemplate([null, 42, { nope: true }, { type: 'body', text: 'oi' }])).toEqual({
      header: null,
      body: 'oi',
      footer: null,
      buttons: [],
    });
  });

  it('lists each variable once, in order, positional or named', () => {
    expect(variablesOf('{{2}} e {{1}} e {{2}}')).toEqual(['2', '1']);
    expect(variablesOf('Oi {{ nome }}')).toEqual(['nome']);
    expect(variablesOf(null)).toEqual([]);
  });

  it('fills the preview and keeps {{n}} where a value is missing', () => {
    expect(fillText('Olá {{1}}, pedido {{2}}', { 1: ' Maria ' })).toBe('Olá Maria, pedido {{2}}');
  });

  it('requires every variable and a http(s) URL for a media header', () => {
    const values = emptyTemplateValues();
    expect(validateTemplate(order, values)).toEqual({
      'header-1': 'required',
      'body-1': 'required',
      'body-2': 'required',
      'button-1-1': 'required',
    });
    const image = parseTemplate([
      { type: 'HEADER', format: 'IMAGE' },
      { type: 'BODY', text: 'Sem variáveis' },
    ]);
    expect(templateFields(image).map((f) => f.id)).toEqual(['header-media']);
    expect(validateTemplate(image, { ...values, headerMediaUrl: 'javascript:alert(1)' })).toEqual({
      'header-media': 'url',
    });
    expect(validateTemplate(image, { ...values, headerMediaUrl: 'https://cdn.test/a.png' })).toEqual({});
  });

  it("builds Graph's send components: header, body and URL-button parameters", () => {
    const values = {
      header: { 1: '#981' },
      headerMediaUrl: '',
      body: { 1: 'Maria', 2: '#981 ' },
      buttons: { 1: 'abc' },
    };
    expect(validateTemplate(order, values)).toEqual({});
    expect(buildComponents(order, values)).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: '#981' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Maria' },
          { type: 'text', text: '#981' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'abc' }] },
    ]);
  });

  it('sends media headers as links, named variables with their names, and nothing for a template without variables', () => {
    const video = parseTemplate([
      { type: 'HEADER', format: 'VIDEO' },
      { type: 'BODY', text: 'Oi {{nome}}' },
    ]);
    expect(
      buildComponents(video, {
        ...emptyTemplateValues(),
        headerMediaUrl: ' https://cdn.test/v.mp4 ',
        body: { nome: 'Ana' },
      }),
    ).toEqual([
      { type: 'header', parameters: [{ type: 'video', video: { link: 'https://cdn.test/v.mp4' } }] },
      { type: 'body', parameters: [{ type: 'text', parameter_name: 'nome', text: 'Ana' }] },
    ]);
    expect(buildComponents(parseTemplate([{ type: 'BODY', text: 'Olá!' }]), emptyTemplateValues())).toEqual([]);
  });
});
