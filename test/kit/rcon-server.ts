// A Minecraft RCON server on 127.0.0.1, written from wiki.vg "RCON", Valve's "Source RCON Protocol" and Minecraft's
// RconClient (independent of src/, so that a mistake in the client's protocol code is not mirrored here):
//  - each packet must come alone in one read of at most 1460 bytes, or the connection is dropped, as RconClient does;
//  - login (type 3): the answer is type 2 under the same id, or id -1 for a wrong or empty password;
//  - command (type 2): the answer is cut into packets of 4096 characters (at least one packet, even when empty);
//    before a login Minecraft answers a command with id -1 and keeps the connection;
//  - any other type: "Unknown request <type in hex>" under the same id;
//  - answers like vanilla 1.20's: no line breaks between messages (MC-7569).
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface RconServerOptions {
  password: string;
  players?: string[];
  maxPlayers?: number;
}

export interface RconServer {
  host: '127.0.0.1';
  port: number;
  /** Every command received after a login, in order. */
  commands: string[];
  /** Successful logins. */
  readonly logins: number;
  /** TCP connections accepted. */
  readonly connections: number;
  /** Packets of a type other than login and command (end-of-answer sentinels). */
  readonly unknownRequests: number;
  readonly bytesReceived: number;
  /** Why connections were dropped (a packet split or coalesced, too long…). */
  errors: string[];
  setPlayers(names: string[]): void;
  /** The next command is recorded, then its connection closed without an answer. */
  closeNextCommand(): void;
  /** Commands starting with `match` (or matching it) get `text`; null: never answered. The latest script wins. */
  answer(match: string | RegExp, text: string | null): void;
  stop(): Promise<void>;
}

/** RconClient's buffer: a longer packet is read in part, its length no longer matches, and the connection is dropped. */
const MAX_READ = 1460;
const FRAGMENT_CHARS = 4096;

function packet(id: number, type: number, body: string): Buffer {
  const text = Buffer.from(body, 'utf8');
  const out = Buffer.alloc(14 + text.length);
  out.writeInt32LE(10 + text.length, 0);
  out.writeInt32LE(id, 4);
  out.writeInt32LE(type, 8);
  text.copy(out, 12);
  return out;
}

/** RconClient.sendCmdResponse: Java substrings of 4096 characters, each encoded as UTF-8. */
function sendAnswer(socket: Socket, id: number, text: string): void {
  let rest = text;
  do {
    socket.write(packet(id, 0, rest.slice(0, FRAGMENT_CHARS)));
    rest = rest.slice(FRAGMENT_CHARS);
  } while (rest.length > 0);
}

/** Brigadier's error context: at most the last 10 characters before the error, "..." in front when cut. */
function unknownCommand(command: string): string {
  const context = command.length > 10 ? `...${command.slice(-10)}` : command;
  return `Unknown or incomplete command, see below for error${context}<--[HERE]`;
}

/** "minecraft:diamond_sword" → "Diamond Sword", as /give names the item. */
function itemName(item: string): string {
  const id = item.replace(/[[{].*$/, '').replace(/^[a-z0-9_.-]+:/, '');
  return id
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

const HELP = [
  '/advancement (grant|revoke)',
  '/attribute <target> <attribute> (base|get|modifier)',
  '/ban <targets> [<reason>]',
  '/ban-ip <target> [<reason>]',
  '/banlist [ips|players]',
  '/bossbar (add|get|list|remove|set)',
  '/clear [<targets>]',
  '/clone (<begin>|from)',
  '/data (get|merge|modify|remove)',
  '/datapack (disable|enable|list)',
  '/debug (function|start|stop)',
  '/defaultgamemode <gamemode>',
  '/deop <targets>',
  '/difficulty [peaceful|easy|normal|hard]',
  '/effect (clear|give)',
  '/enchant <targets> <enchantment> [<level>]',
  '/execute (align|anchored|as|at|facing|if|in|on|positioned|rotated|run|store|summon|unless)',
  '/experience (add|query|set)',
  '/fill <from> <to> <block> [destroy|hollow|keep|outline|replace]',
  '/forceload (add|query|remove)',
  '/function <name> [<arguments>|with]',
  '/gamemode <gamemode> [<target>]',
  '/gamerule (announceAdvancements|commandBlockOutput|doDaylightCycle|keepInventory|mobGriefing)',
  '/give <targets> <item> [<count>]',
  '/help [<command>]',
  '/kick <targets> [<reason>]',
  '/kill [<targets>]',
  '/list [uuids]',
  '/locate (biome|poi|structure)',
  '/loot (give|insert|replace|spawn)',
  '/me <action>',
  '/msg <targets> <message>',
  '/op <targets>',
  '/pardon <targets>',
  '/particle <name> [<pos>]',
  '/playsound <sound> (ambient|block|hostile|master|music|neutral|player|record|voice|weather)',
  '/reload',
  '/save-all [flush]',
  '/say <message>',
  '/schedule (clear|function)',
  '/scoreboard (objectives|players)',
  '/setblock <pos> <block> [destroy|keep|replace]',
  '/spawnpoint [<targets>]',
  '/spectate [<target>]',
  '/stop',
  '/summon <entity> [<pos>]',
  '/tag <targets> (add|list|remove)',
  '/team (add|empty|join|leave|list|modify|remove)',
  '/tellraw <targets> <message>',
  '/time (add|query|set)',
  '/title <targets> (actionbar|clear|reset|subtitle|times|title)',
  '/tp (<destination>|<location>|<targets>)',
  '/weather (clear|rain|thunder)',
  '/whitelist (add|list|off|on|reload|remove)',
  '/xp -> experience',
].join('');

export async function startRconServer(options: RconServerOptions): Promise<RconServer> {
  let players = [...(options.players ?? [])];
  const maxPlayers = options.maxPlayers ?? 20;
  const commands: string[] = [];
  const errors: string[] = [];
  const scripts: Array<{ match: string | RegExp; text: string | null }> = [];
  const sockets = new Set<Socket>();
  let logins = 0;
  let connections = 0;
  let unknownRequests = 0;
  let bytesReceived = 0;
  let closeNext = false;

  const defaultAnswer = (command: string): string => {
    // Minecraft's performPrefixedCommand drops one leading "/".
    const words = command.replace(/^\//, '').split(' ');
    const online = (name: string) => players.find((player) => player.toLowerCase() === name.toLowerCase());
    switch (words[0]) {
      case 'list':
        if (words.length > 1) break;
        return `There are ${players.length} of a max of ${maxPlayers} players online: ${players.join(', ')}`;
      case 'say':
        if (words.length < 2) break;
        return '';
      case 'give': {
        if (words.length < 3 || !words[2]) break;
        const player = online(words[1]);
        if (!player) return 'No player was found';
        return `Gave ${words[3] ?? '1'} [${itemName(words[2])}] to ${player}`;
      }
      case 'help':
        return HELP;
    }
    return unknownCommand(command);
  };

  const answerFor = (command: string): string | null => {
    for (let i = scripts.length - 1; i >= 0; i--) {
      const { match, text } = scripts[i];
      if (typeof match === 'string' ? command.startsWith(match) : match.test(command)) return text;
    }
    return defaultAnswer(command);
  };

  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let authed = false;
    const drop = (why: string) => {
      errors.push(why);
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      bytesReceived += chunk.length;
      if (chunk.length > MAX_READ) return drop(`a read of ${chunk.length} bytes; Minecraft reads at most ${MAX_READ}`);
      if (chunk.length < 14 || chunk.readInt32LE(0) !== chunk.length - 4) {
        return drop(`a read of ${chunk.length} bytes that is not exactly one packet`);
      }
      const id = chunk.readInt32LE(4);
      const type = chunk.readInt32LE(8);
      const text = chunk.subarray(12, chunk.length - 2);
      const nul = text.indexOf(0);
      const body = (nul < 0 ? text : text.subarray(0, nul)).toString('utf8');
      if (type === 3) {
        authed = body !== '' && body === options.password;
        if (authed) logins++;
        socket.write(packet(authed ? id : -1, 2, ''));
        return;
      }
      if (type !== 2) {
        unknownRequests++;
        return sendAnswer(socket, id, `Unknown request ${(type >>> 0).toString(16)}`);
      }
      if (!authed) return void socket.write(packet(-1, 2, ''));
      commands.push(body);
      if (closeNext) {
        closeNext = false;
        socket.destroy();
        return;
      }
      const answer = answerFor(body);
      if (answer !== null) sendAnswer(socket, id, answer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });

  return {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    commands,
    errors,
    get logins() {
      return logins;
    },
    get connections() {
      return connections;
    },
    get unknownRequests() {
      return unknownRequests;
    },
    get bytesReceived() {
      return bytesReceived;
    },
    setPlayers(names) {
      players = [...names];
    },
    closeNextCommand() {
      closeNext = true;
    },
    answer(match, text) {
      scripts.push({ match, text });
    },
    stop() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
