/** A small built-in emoji set for the input's picker: a few categories, each emoji with search words (pt and en). */
export type EmojiCategory = 'smileys' | 'gestures' | 'hearts' | 'objects';

export interface EmojiEntry {
  emoji: string;
  words: string;
}

export const EMOJI_CATEGORIES: Record<EmojiCategory, EmojiEntry[]> = {
  smileys: [
    { emoji: '😀', words: 'sorriso feliz grin smile happy' },
    { emoji: '😁', words: 'sorriso dentes grin beaming' },
    { emoji: '😂', words: 'rindo lagrimas risada joy laugh tears' },
    { emoji: '🤣', words: 'rolando rindo rofl laugh' },
    { emoji: '😊', words: 'sorriso corado blush smile' },
    { emoji: '😇', words: 'anjo santo angel halo' },
    { emoji: '🙂', words: 'sorriso leve slight smile' },
    { emoji: '😉', words: 'piscada wink' },
    { emoji: '😍', words: 'apaixonado amor love heart eyes' },
    { emoji: '😘', words: 'beijo kiss' },
    { emoji: '😋', words: 'gostoso delicia yum' },
    { emoji: '😎', words: 'legal oculos cool sunglasses' },
    { emoji: '🤔', words: 'pensando thinking hmm' },
    { emoji: '😐', words: 'neutro neutral' },
    { emoji: '🙄', words: 'revirando olhos eye roll' },
    { emoji: '😴', words: 'dormindo sono sleep' },
    { emoji: '😅', words: 'suor alivio sweat smile' },
    { emoji: '😢', words: 'triste chorando sad cry' },
    { emoji: '😭', words: 'chorando muito sob cry' },
    { emoji: '😡', words: 'bravo raiva angry mad' },
    { emoji: '😮', words: 'surpreso uau wow surprised' },
    { emoji: '😱', words: 'medo grito scream fear' },
    { emoji: '🥳', words: 'festa comemorar party celebrate' },
    { emoji: '🤗', words: 'abraco hug' },
  ],
  gestures: [
    { emoji: '👍', words: 'joinha positivo like thumbs up ok' },
    { emoji: '👎', words: 'negativo dislike thumbs down' },
    { emoji: '👌', words: 'ok perfeito perfect' },
    { emoji: '✌️', words: 'paz vitoria peace victory' },
    { emoji: '🤞', words: 'dedos cruzados sorte luck crossed fingers' },
    { emoji: '👏', words: 'palmas aplausos clap applause' },
    { emoji: '🙌', words: 'celebrar maos raise hands' },
    { emoji: '🙏', words: 'obrigado por favor reza pray thanks please' },
    { emoji: '🤝', words: 'aperto de mao acordo handshake deal' },
    { emoji: '👋', words: 'ola tchau aceno wave hello bye' },
    { emoji: '💪', words: 'forca forte strong muscle' },
    { emoji: '👀', words: 'olhos olhando eyes look' },
  ],
  hearts: [
    { emoji: '❤️', words: 'coracao amor vermelho heart love red' },
    { emoji: '🧡', words: 'coracao laranja orange heart' },
    { emoji: '💛', words: 'coracao amarelo yellow heart' },
    { emoji: '💚', words: 'coracao verde green heart' },
    { emoji: '💙', words: 'coracao azul blue heart' },
    { emoji: '💜', words: 'coracao roxo purple heart' },
    { emoji: '🖤', words: 'coracao preto black heart' },
    { emoji: '💔', words: 'coracao partido broken heart' },
    { emoji: '💕', words: 'coracoes two hearts' },
    { emoji: '✨', words: 'brilho sparkles' },
    { emoji: '⭐', words: 'estrela star' },
    { emoji: '🔥', words: 'fogo fire hot' },
  ],
  objects: [
    { emoji: '✅', words: 'feito certo check done' },
    { emoji: '❌', words: 'errado cancelar cross wrong' },
    { emoji: '⚠️', words: 'atencao aviso warning' },
    { emoji: '📞', words: 'telefone ligar phone call' },
    { emoji: '📧', words: 'email correio mail' },
    { emoji: '📅', words: 'calendario data calendar date' },
    { emoji: '⏰', words: 'relogio alarme hora clock alarm time' },
    { emoji: '📦', words: 'pacote entrega package delivery' },
    { emoji: '💰', words: 'dinheiro money bag' },
    { emoji: '💳', words: 'cartao credito card' },
    { emoji: '📄', words: 'documento page document' },
    { emoji: '🎉', words: 'festa comemorar party tada' },
    { emoji: '🎁', words: 'presente gift' },
    { emoji: '🚀', words: 'foguete rapido rocket' },
    { emoji: '☕', words: 'cafe coffee' },
    { emoji: '🍕', words: 'pizza comida food' },
  ],
};

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Emoji whose words contain every typed word (accents ignored). */
export function searchEmoji(query: string): EmojiEntry[] {
  const terms = fold(query).split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [];
  return Object.values(EMOJI_CATEGORIES)
    .flat()
    .filter((entry) => terms.every((term) => fold(entry.words).includes(term)));
}
