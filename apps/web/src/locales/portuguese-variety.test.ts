/**
 * Each Portuguese locale is one variety. The spec's locales are `pt` (the default Portuguese) and `pt-br`; both are
 * Brazilian Portuguese (the product's own texts, e.g. 'Necessário realizar login', are Brazilian, and `pt` renders as
 * pt-BR). A European word in one of them (or a Brazilian one in a European locale, should one be added) fails here.
 */
import { describe, expect, it } from 'vitest';

const files = import.meta.glob<Record<string, unknown>>('./*.json', { eager: true, import: 'default' });

type Variety = 'BR' | 'PT';

/** The variety of every Portuguese locale file; a new `pt-*.json` must be listed here. */
const VARIETIES: Record<string, Variety> = { pt: 'BR', 'pt-br': 'BR' };

/**
 * Words only one variety uses in a UI. Kept to unambiguous ones: "ligação" (a phone call in Brazil), "guardar",
 * "gravar", "apagar", "tela" in a flow canvas sense, "agente" are used by both and are not markers.
 */
const MARKERS: Record<Variety, RegExp[]> = {
  // European Portuguese: a Brazilian locale must not contain these.
  PT: [
    /palavras?-passe/,
    /utilizador(es|as?)?/,
    /ficheiros?/,
    /contactos?/,
    /contacte/,
    /registad[oa]s?/,
    /registos?/,
    /ecrãs?/,
    /telemóve(l|is)/,
    /eliminar/,
    /eliminad[oa]s?/,
    /guardad[oa]s?/,
    /anulad[oa]s?/,
    /aceites/,
    /multimédia/,
    /predefinid[oa]s?/,
    /noutr[oa]s?/,
    /mencionou-[oa]/,
    /enviámos/,
    /por ler/,
    /(?:^|est(?:á|ão|ou|amos) )a (?:aguardar|carregar|enviar|confirmar|criar|processar|ligar|guardar)/,
    /equipas?/,
    /partilh\p{L}*/u,
    /definições/,
    /morada/,
    /pretende/,
    /indique/,
  ],
  // Brazilian Portuguese: a European locale must not contain these.
  BR: [
    /senhas?/,
    /usuári[oa]s?/,
    /arquivos?/,
    /contatos?/,
    /celular(es)?/,
    /cadastr\p{L}*/u,
    /excluir/,
    /excluíd[oa]s?/,
    /mídias?/,
    /equipes?/,
    /você/,
    /salv[oa]s?/,
  ],
};

function texts(node: unknown, prefix = ''): [string, string][] {
  if (typeof node === 'string') return [[prefix, node]];
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => texts(value, prefix ? `${prefix}.${key}` : key));
}

/** Whole-word matches ("contacto" in "contactos" yes, "registro" for /registos?/ no). */
function matches(marker: RegExp, text: string): string[] {
  const word = new RegExp(`(?<![\\p{L}-])(?:${marker.source})(?![\\p{L}])`, 'giu');
  return [...text.matchAll(word)].map((m) => m[0]);
}

/** Every `key: word` of `variety` in `file`. */
function markersIn(file: unknown, variety: Variety): string[] {
  return texts(file).flatMap(([key, text]) =>
    MARKERS[variety].flatMap((marker) => matches(marker, text).map((word) => `${key}: ${word}`)),
  );
}

const portuguese = Object.keys(files)
  .map((file) => file.slice(2, -5))
  .filter((code) => code === 'pt' || code.startsWith('pt-'));

describe('Portuguese locales are one variety each', () => {
  it('every Portuguese locale has a declared variety', () => {
    expect(portuguese.sort()).toEqual(Object.keys(VARIETIES).sort());
  });

  for (const code of portuguese) {
    const variety = VARIETIES[code];
    const other: Variety = variety === 'BR' ? 'PT' : 'BR';
    it(`${code} (${variety}) has no ${other === 'PT' ? 'European' : 'Brazilian'} wording`, () => {
      expect(markersIn(files[`./${code}.json`], other)).toEqual([]);
    });
  }

  it('the markers find both varieties in a mixed text (the check itself works)', () => {
    const mixed = {
      a: 'Palavra-passe do utilizador',
      b: 'Ficheiro do contacto registado',
      c: 'Senha do usuário',
      d: 'Arquivo do contato cadastrado',
      e: 'Registro do registo',
      f: 'A confirmar o registro; arquivos a enviar; está a carregar',
    };
    expect(markersIn(mixed, 'PT')).toEqual([
      'a: Palavra-passe',
      'a: utilizador',
      'b: Ficheiro',
      'b: contacto',
      'b: registado',
      'e: registo',
      'f: A confirmar',
      'f: está a carregar',
    ]);
    expect(markersIn(mixed, 'BR')).toEqual([
      'c: Senha',
      'c: usuário',
      'd: Arquivo',
      'd: contato',
      'd: cadastrado',
      'f: arquivos',
    ]);
  });
});
