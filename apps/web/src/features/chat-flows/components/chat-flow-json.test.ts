/** What import accepts (an exported record or a bare graph) and what export writes. */
import { describe, expect, it } from 'vitest';
import { defaultChatFlow, type ChatFlowDto } from '@conversa/shared';
import { checkImportedFlow, exportedFlow, exportFileName } from './chat-flow-json';

const graph = defaultChatFlow('Vendas');
const record: ChatFlowDto = {
  id: 3,
  name: 'Vendas',
  isActive: true,
  celularTeste: '5511999990000',
  userId: 1,
  flow: graph,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

describe('checkImportedFlow', () => {
  it('an empty or blank text is required', () => {
    expect(checkImportedFlow('')).toEqual({ ok: false, reason: 'required' });
    expect(checkImportedFlow('  \n ')).toEqual({ ok: false, reason: 'required' });
  });

  it('text that is not JSON, or JSON that is not an object, is invalid', () => {
    expect(checkImportedFlow('{ nodeList: ')).toEqual({ ok: false, reason: 'invalid' });
    expect(checkImportedFlow('[1, 2]')).toEqual({ ok: false, reason: 'invalid' });
    expect(checkImportedFlow('"text"')).toEqual({ ok: false, reason: 'invalid' });
    expect(checkImportedFlow('null')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('JSON that is neither a graph nor a record with a graph is invalid', () => {
    expect(checkImportedFlow('{"name":"x"}')).toEqual({ ok: false, reason: 'invalid' });
    expect(checkImportedFlow('{"nodeList":[]}')).toEqual({ ok: false, reason: 'invalid' });
    expect(checkImportedFlow(JSON.stringify({ name: 'x', flow: { nodeList: [{ id: 'a', type: 'bogus' }] } }))).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('a bare graph and an exported record pass, unchanged', () => {
    expect(checkImportedFlow(JSON.stringify(graph))).toEqual({ ok: true, imported: graph });
    const exported = exportedFlow(record);
    expect(checkImportedFlow(JSON.stringify(exported))).toEqual({ ok: true, imported: exported });
  });
});

describe('export', () => {
  it('writes name, isActive, celularTeste and flow, nothing else', () => {
    expect(exportedFlow(record)).toEqual({
      name: 'Vendas',
      isActive: true,
      celularTeste: '5511999990000',
      flow: graph,
    });
  });

  it('names the file after the flow, without characters file systems refuse', () => {
    expect(exportFileName('Vendas')).toBe('Vendas.json');
    expect(exportFileName('a/b:c')).toBe('a_b_c.json');
    expect(exportFileName('  ')).toBe('chat-flow.json');
  });
});
