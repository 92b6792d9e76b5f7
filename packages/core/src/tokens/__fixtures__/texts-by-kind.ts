import { readFileSync } from 'node:fs';
import type { Message } from '../../model/message.ts';

/**
 * Conversations by kind of text, to compare token counts per model (tests and
 * `bench/token-counts-bench.ts`). Where each comes from:
 * - `english`: the first sessions of `bench/recall/data/dialogue.json` (Ines and Marek, written
 *   for this project), alternating user and assistant.
 * - `typescript`: blocks of this package's own source (`src/tokens/bounded-pieces.ts`,
 *   `src/engine/memory-session.ts`), pasted by a user and answered.
 * - `json`: the tool calls (arguments made compact) and tool results of
 *   `examples/support-desk.conversation.json`.
 * - `japanese`, `german`, `chinese`: the short support chats below, written for this fixture.
 */
export type TextKind = 'english' | 'typescript' | 'json' | 'japanese' | 'german' | 'chinese';

export const TEXT_KINDS: readonly TextKind[] = [
  'english',
  'typescript',
  'json',
  'japanese',
  'german',
  'chinese',
];

const at = (path: string) => new URL(`../../../${path}`, import.meta.url);

const JAPANESE = [
  'こんにちは。先週注文したコーヒーミルがまだ届いていません。注文番号はJP-20418です。',
  'ご連絡ありがとうございます。確認したところ、配送業者の倉庫で三日間止まっていたようです。',
  'そうなんですね。週末に友人が来るので、それまでに使いたかったのですが、間に合いますか。',
  '明日の午前中に再出荷の手配をしました。金曜日の夕方までにはお届けできる見込みです。',
  '助かります。もし金曜日に届かなかった場合は、キャンセルして返金してもらえますか。',
  'はい、その場合は全額返金いたします。送料もこちらで負担しますので、ご安心ください。',
  'ありがとうございます。ついでに聞きたいのですが、替えの刃は別売りになっていますか。',
  '替え刃は別売りで、税込み二千四百円です。セラミック製で、約二年間お使いいただけます。',
  'では、替え刃も一つ追加でお願いします。同じ住所に一緒に送ってもらえると嬉しいです。',
  '承知しました。替え刃を同梱して発送します。追跡番号は明日メールでお知らせします。',
];

const GERMAN = [
  'Guten Tag, ich habe letzte Woche eine Kaffeemühle bestellt, Bestellnummer DE-20418, und sie ist immer noch nicht angekommen.',
  'Danke für Ihre Nachricht. Laut Sendungsverfolgung lag das Paket drei Tage im Lager des Zustellers in Kassel fest.',
  'Ärgerlich. Am Wochenende kommen Freunde zu Besuch, und ich wollte die Mühle bis dahin unbedingt ausprobieren.',
  'Ich habe für morgen früh einen Neuversand veranlasst. Voraussichtlich ist die Mühle am Freitagnachmittag bei Ihnen.',
  'Und falls sie am Freitag doch nicht da ist? Kann ich dann stornieren und bekomme mein Geld zurück?',
  'Selbstverständlich. In diesem Fall erstatten wir den vollen Betrag einschließlich der Versandkosten.',
  'Gut zu wissen. Noch eine Frage: Sind Ersatzmahlwerke einzeln erhältlich, oder muss ich ein neues Gerät kaufen?',
  'Ersatzmahlwerke gibt es einzeln für 24,00 Euro. Sie sind aus Keramik und halten bei täglichem Gebrauch etwa zwei Jahre.',
  'Dann legen Sie bitte gleich ein Ersatzmahlwerk dazu, an dieselbe Adresse in der Schönhauser Allee.',
  'Erledigt: Das Mahlwerk geht mit der Mühle in einem Paket raus. Die Sendungsnummer schicke ich Ihnen morgen per E-Mail.',
];

const CHINESE = [
  '你好，我上周订购的咖啡磨豆机到现在还没有收到，订单号是CN-20418。',
  '感谢您的来信。我们查询后发现，包裹在快递公司的仓库里滞留了三天。',
  '这样啊。周末有朋友来家里做客，我本来想在那之前用上它，还来得及吗？',
  '我已经安排明天上午重新发货，预计周五傍晚之前可以送到您手中。',
  '太好了。如果周五还是没有送到，可以取消订单并退款吗？',
  '当然可以。如果那样的话，我们会全额退款，运费也由我们承担，请您放心。',
  '谢谢。顺便问一下，替换用的磨芯是单独出售的吗？',
  '磨芯是单独出售的，含税价格为一百六十元。陶瓷材质，正常使用大约可以用两年。',
  '那请再帮我加一个磨芯，和磨豆机一起寄到同一个地址就好。',
  '好的，磨芯会和磨豆机放在同一个包裹里寄出。物流单号明天会通过邮件发给您。',
];

const chat = (texts: readonly string[], prefix: string): Message[] =>
  texts.map((content, i) => ({
    id: `${prefix}${i}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    content,
    createdAt: i,
  }));

interface DialogueFile {
  sessions: Array<{ turns: Array<{ text: string }> }>;
}

function english(): Message[] {
  const file = JSON.parse(
    readFileSync(at('bench/recall/data/dialogue.json'), 'utf8'),
  ) as DialogueFile;
  return chat(
    file.sessions.slice(0, 4).flatMap((s) => s.turns.map((t) => t.text)),
    'en',
  );
}

function typescript(): Message[] {
  const blocks = ['src/tokens/bounded-pieces.ts', 'src/engine/memory-session.ts']
    .flatMap((path) => readFileSync(at(path), 'utf8').split(/\n\n(?=\S)/))
    .filter((b) => b.trim().length > 0);
  return blocks.flatMap((block, i) => [
    { id: `ts${i}`, role: 'user' as const, content: block, createdAt: 2 * i },
    { id: `ts${i}r`, role: 'assistant' as const, content: 'Noted.', createdAt: 2 * i + 1 },
  ]);
}

interface ConversationFile {
  sessions: Array<{ messages: Message[] }>;
}

function json(): Message[] {
  const file = JSON.parse(
    readFileSync(at('examples/support-desk.conversation.json'), 'utf8'),
  ) as ConversationFile;
  return file.sessions
    .flatMap((s) => s.messages)
    .filter((m) => m.role === 'tool' || (m.toolCalls?.length ?? 0) > 0)
    .map((m) =>
      // Arguments as an SDK serializes an object (compact), the form Anthropic's input takes.
      m.toolCalls === undefined
        ? m
        : {
            ...m,
            toolCalls: m.toolCalls.map((c) => ({
              ...c,
              arguments: JSON.stringify(JSON.parse(c.arguments)),
            })),
          },
    );
}

/** The conversations, one per kind (read from the repo on each call). */
export function textsByKind(): Record<TextKind, Message[]> {
  return {
    english: english(),
    typescript: typescript(),
    json: json(),
    japanese: chat(JAPANESE, 'ja'),
    german: chat(GERMAN, 'de'),
    chinese: chat(CHINESE, 'zh'),
  };
}
