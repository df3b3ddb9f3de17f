// RCON callbacks: rewards with no plugin at all. A vote (or a milestone, a vote party, a reminder) runs the owner's
// console commands on a Minecraft server over the Source RCON protocol (rcon-connection.ts), one logged-in connection
// per server (rcon-pool.ts). With require_online, a player who is not in the server's `list` gets their vote parked
// until they are seen online (online-poll.ts). A name goes into a command only if it is a player name; every other
// variable is reduced to safe text, and variables whose text cannot be made safe are refused when the callback is
// saved (README "No plugin: RCON").
import { z } from 'zod';
import type { AppDeps } from '../../../app/deps.js';
import type { FieldError } from '../../../base/errors.js';
import { LeaseLost, type SendResult } from '../../senders.js';
import { renderText, type Lookup } from '../../template.js';
import { TEMPLATE_VARIABLES } from '../../template-variables.js';
import type { CallbackKind, Delivery, KindSendContext } from '../callback-kind.js';
import { attemptTo, type AttemptExtra } from '../attempt-result.js';
import { setting, stringList, type SettingField, type SettingValues } from '../settings-schema.js';
import { isPlayerName } from '../../../domain/player-name.js';
import { answerMarksFailure, commandSafeText, isOnline, parseOnlinePlayers } from './players.js';
import { MAX_COMMAND_BYTES } from './protocol.js';
import { RconError } from './rcon-connection.js';
import { rconPoolOf, rconTarget } from './rcon-pool.js';
import { startOnlinePoll } from './online-poll.js';

const HOST = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/;
export const DEFAULT_RCON_PORT = 25_575;
/** Each command's answer kept in the delivery log. */
const ANSWER_KEPT = 1_024;
const MAX_COMMANDS = 20;
const VARIABLE = /\{\{\s*([A-Za-z_][\w.[\]-]*)\s*\}\}|\{([A-Za-z_][\w.[\]-]*)\}/g;

/** Variables that hold a player's name: they go into a command only as a valid player name. */
const NAME_VARIABLES = new Set(['voter_name']);
/** Variables whose text comes from the voting site or is a URL: no reduction keeps them meaningful and safe. */
const REFUSED_VARIABLES: Record<string, string> = {
  raw_payload: 'the voting site’s whole request cannot go into a command',
  vote_url: 'a URL cannot go into a command safely (name the site with {{provider_name}} instead)',
};
const KNOWN_VARIABLES = new Set(TEMPLATE_VARIABLES.map((v) => v.name));
const isRefused = (name: string) => name in REFUSED_VARIABLES || name.startsWith('payload.');

const command = z
  .string()
  .min(1, 'must not be empty')
  .refine((c) => !/[\r\n\0]/.test(c), 'must be one line')
  .refine((c) => Buffer.byteLength(c) <= MAX_COMMAND_BYTES, `must be at most ${MAX_COMMAND_BYTES} bytes (the RCON command limit)`);
const commands = stringList(command, MAX_COMMANDS);

const settings: SettingField[] = [
  {
    name: 'host',
    type: 'string',
    rule: z.string().regex(HOST, 'must be a host name or IP address'),
    required: true,
    label: 'Host',
    help: "the Minecraft server's host name or IP address (RCON is plaintext: keep it on a private network or a tunnel)",
    placeholder: 'mc.example.com',
  },
  {
    name: 'port',
    type: 'int',
    rule: z.number().int('must be an integer').min(1).max(65_535),
    default: DEFAULT_RCON_PORT,
    label: 'RCON port',
    help: 'rcon.port in server.properties (default 25575)',
  },
  {
    name: 'password',
    type: 'string',
    rule: z.string().min(1).max(200),
    secret: true,
    required: true,
    label: 'RCON password',
    help: 'rcon.password in server.properties; never returned',
  },
  {
    name: 'commands',
    type: 'strings',
    rule: commands,
    default: [],
    label: 'Commands for each vote',
    help: 'console commands run in order for each vote, with {{variables}} ({{voter_name}} only as a valid player name)',
    placeholder: 'give {{voter_name}} diamond 1',
  },
  {
    name: 'eventCommands',
    type: 'json',
    rule: z.strictObject({ milestone: commands.optional(), vote_party: commands.optional(), reminder: commands.optional() }),
    nullable: true,
    restOmitWhenNull: true,
    label: 'Commands for events (JSON, optional)',
    help: '{milestone?, vote_party?, reminder?}, each a list of commands; a vote party’s run once per server',
    placeholder: '{"vote_party": ["crate giveall voteparty 1"]}',
  },
  {
    name: 'requireOnline',
    type: 'boolean',
    rule: z.boolean(),
    default: true,
    label: 'Only while the player is online',
    help: 'before a vote’s commands run, `list` must show the player; an offline player’s vote is parked until they join',
  },
];

/** Every command the callback holds, with the field it came from (for refusals on save). */
function allCommands(values: SettingValues): { field: string; command: string }[] {
  const events = (setting<Record<string, string[]> | null>(values, 'eventCommands') ?? {}) as Record<string, string[]>;
  return [
    ...(setting<string[] | undefined>(values, 'commands') ?? []).map((c, i) => ({ field: `commands[${i}]`, command: c })),
    ...Object.entries(events).flatMap(([event, list]) => list.map((c, i) => ({ field: `event_commands.${event}[${i}]`, command: c }))),
  ];
}

function refusedVariables(values: SettingValues): FieldError[] {
  const problems: FieldError[] = [];
  for (const { field, command } of allCommands(values)) {
    for (const match of command.matchAll(VARIABLE)) {
      const name = match[1] ?? match[2];
      if (isRefused(name))
        problems.push({ field, message: `{{${name}}} is not allowed in a command: ${REFUSED_VARIABLES[name] ?? 'its text comes from the voting site'}` });
      else if (!KNOWN_VARIABLES.has(name))
        problems.push({ field, message: `{{${name}}} is not a variable (GET /v1/callbacks/variables lists them); it would reach the server as written` });
    }
  }
  return problems;
}

/** A vote's, an event's, or the test's commands. */
function commandsOf(values: SettingValues, event: Delivery['event']): string[] {
  if (event === 'vote') return setting<string[]>(values, 'commands') ?? [];
  return setting<Record<string, string[]> | null>(values, 'eventCommands')?.[event] ?? [];
}

/** A voter name that is not a player name: no command is sent, and no retry can change it. */
class NotAPlayerName extends Error {}

/** The delivery's variables as a command may hold them: a name only as a player name, the rest reduced. */
function commandLookup(base: Lookup, bedrockPrefix: string | null): Lookup {
  return (name) => {
    const value = base(name);
    if (value === undefined || isRefused(name)) return undefined;
    if (NAME_VARIABLES.has(name)) {
      if (!isPlayerName(value, bedrockPrefix)) throw new NotAPlayerName(`not a player name: ${JSON.stringify(value.slice(0, 40))}`);
      return value;
    }
    return commandSafeText(value) ?? '';
  };
}

const target = (values: SettingValues) => `rcon://${values.host}:${values.port}`;

/** Whose vote this is, for the online check (a vote party is the server's, not one player's). */
const playerOf = (delivery: Delivery): string | null => (delivery.event === 'vote_party' ? null : (delivery.lookup('voter_name') ?? null));

export const rconCallback: CallbackKind = {
  name: 'rcon',
  label: 'RCON: game-server commands, no plugin',
  description: 'console commands run on a Minecraft server over RCON (server.properties: enable-rcon), no plugin needed',
  events: ['vote', 'milestone', 'vote_party', 'reminder'],
  // A command cannot tell a test from a real vote: a test reaches it only when its sender asks.
  marksTests: false,
  // A console command that ran twice gave twice.
  dropsRepeats: false,
  // Marked once its turn on the server’s one connection has come (rcon-pool.ts turn), not while it waits for it.
  marksItself: true,
  signed: false,
  settings,
  check(input, existing) {
    const problems = refusedVariables(input);
    const moved = existing === null || input.host !== undefined || input.port !== undefined;
    const host = (input.host as string | undefined) ?? (existing?.host as string | undefined);
    const port = (input.port as number | undefined) ?? (existing?.port as number | undefined) ?? DEFAULT_RCON_PORT;
    return { problems, target: moved && host ? { url: `http://${host}:${port}/`, field: 'host' } : null };
  },
  target,
  /** Connects, logs in and runs `list` (nothing else), and says what it saw. */
  async test(deps, callback, values, delivery) {
    const base = { url: target(values), method: 'RCON', headers: {}, sent: true };
    const shown = commandsOf(values, delivery.event).map((c) => {
      try {
        return renderText(c, commandLookup(delivery.lookup, null));
      } catch (err) {
        return `(not sent: ${(err as Error).message})`;
      }
    });
    try {
      const connection = await rconPoolOf(deps).get(rconTarget(values, callback.timeoutMs));
      const answer = await connection.run('list');
      const players = parseOnlinePlayers(answer);
      const online = players === null ? `the server answered list with ${JSON.stringify(answer.slice(0, 200))}` : describePlayers(players);
      return { ...base, payload: { commands: shown, list: answer.slice(0, ANSWER_KEPT) }, message: `logged in; ${online}` };
    } catch (err) {
      return { ...base, sent: false, payload: { commands: shown }, message: `could not run list: ${(err as Error).message}` };
    }
  },
  send: sendCommands,
  background: (deps, wake) => {
    const poll = startOnlinePoll(deps, { name: 'rcon', settings }, wake);
    return {
      async stop() {
        await poll.stop();
        await rconPoolOf(deps).closeAll();
      },
    };
  },
};

function describePlayers(players: string[]): string {
  if (players.length === 0) return 'no players online';
  return `${players.length} ${players.length === 1 ? 'player' : 'players'} online: ${players.slice(0, 20).join(', ')}${players.length > 20 ? ', …' : ''}`;
}

/** One attempt: the online check when asked for, then each command in order; the answers go to the delivery log. */
async function sendCommands(deps: AppDeps, ctx: KindSendContext): Promise<SendResult> {
  const { org, callback, settings: values, delivery } = ctx;
  const where = target(values);
  const result = attemptTo(deps, ctx, where);
  // Each command's answer (its first 1 KiB) goes to the delivery log, numbered.
  const done = (error: string | null, answers: string[], extra: Omit<AttemptExtra, 'detail'> = {}) =>
    result(error, { ...extra, detail: answers.map((a, i) => `${i + 1}> ${a.slice(0, ANSWER_KEPT)}`).join('\n') || null });
  // Rendered before anything is sent: a name that is not a player name sends no command at all.
  let rendered: string[];
  try {
    const lookup = commandLookup(delivery.lookup, org.bedrockPrefix ?? null);
    rendered = commandsOf(values, delivery.event).map((c) => renderText(c, lookup));
  } catch (err) {
    if (err instanceof NotAPlayerName) return done(err.message, [], { permanent: true, voteRefused: true });
    throw err;
  }
  if (rendered.length === 0) return { attempt: null, outcome: { kind: 'skipped' }, error: `The callback has no commands for ${delivery.event}` };
  const answers: string[] = [];
  let commandsStarted = false;
  const pool = rconPoolOf(deps);
  const server = rconTarget(values, callback.timeoutMs);
  let release: (() => void) | null = null;
  try {
    release = await pool.turn(server);
    const connection = await pool.get(server);
    const player = playerOf(delivery);
    if (setting<boolean>(values, 'requireOnline') && player) {
      const answer = await connection.run('list');
      const players = parseOnlinePlayers(answer);
      if (players === null) return done(`the server's answer to list could not be read: ${JSON.stringify(answer.slice(0, 200))}`, [answer]);
      if (!isOnline(players, player)) return { attempt: null, outcome: { kind: 'parked', holder: callback.id }, error: null };
    }
    // Marked now, right before the first command (README "Delivery guarantees"): a crash before it leaves nothing
    // uncertain.
    await ctx.sending();
    commandsStarted = true;
    for (const line of rendered) {
      const answer = await connection.run(line);
      answers.push(answer);
      const failure = answerMarksFailure(answer);
      // Refused after earlier commands ran: sending the vote again would run those twice.
      if (failure) return done(`the server refused ${JSON.stringify(line.slice(0, 80))}: ${failure}`, answers, { uncertain: answers.length > 1 });
    }
    return done(null, answers);
  } catch (err) {
    if (err instanceof LeaseLost) throw err;
    const permanent = err instanceof RconError && err.permanent;
    // A command of the vote written with no answer, or after one that ran: the server may have given the reward
    // (README "Delivery guarantees"); the online check (`list`) is not one.
    const started = answers.length > 0 || (commandsStarted && err instanceof RconError && err.sent);
    return done(started ? `${(err as Error).message}; the vote's commands may or may not have run` : (err as Error).message, answers, {
      permanent,
      uncertain: started,
    });
  } finally {
    release?.();
  }
}
