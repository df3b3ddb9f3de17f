import { describe, expect, it } from 'vitest';
import { isPlayerName, isSafeBedrockPrefix } from '../../../domain/player-name.js';
import { answerMarksFailure, commandSafeText, parseOnlinePlayers } from './players.js';

describe('parseOnlinePlayers', () => {
  it('reads vanilla 1.13+ answers', () => {
    expect(parseOnlinePlayers('There are 1 of a max of 20 players online: Steve')).toEqual(['Steve']);
    expect(parseOnlinePlayers('There are 3 of a max of 100 players online: Steve, alex_2, .BedrockGuy')).toEqual(['Steve', 'alex_2', '.BedrockGuy']);
    expect(parseOnlinePlayers('There are 0 of a max of 20 players online: ')).toEqual([]);
    expect(parseOnlinePlayers('There are 0 of a max of 20 players online:')).toEqual([]);
  });

  it('reads the older "n/max" answers, with and without a line break before the names', () => {
    expect(parseOnlinePlayers('There are 1/20 players online:\nSteve')).toEqual(['Steve']);
    expect(parseOnlinePlayers('There are 2/20 players online:\r\nSteve, Alex\n')).toEqual(['Steve', 'Alex']);
    // Vanilla up to 1.12 over RCON: two messages joined without a line break.
    expect(parseOnlinePlayers('There are 1/20 players online:Steve')).toEqual(['Steve']);
  });

  it('strips colour codes (Paper/Spigot), including a section sign that arrived as one Latin-1 byte', () => {
    expect(parseOnlinePlayers('§6There are §c2§6 of a max of §c20§6 players online: §fSteve§r, §x§f§f§0§0§0§0Alex\n')).toEqual(['Steve', 'Alex']);
    expect(parseOnlinePlayers('\uFFFD6There are 1/20 players online:\n\uFFFDfSteve')).toEqual(['Steve']);
  });

  it('returns null for what it cannot read', () => {
    expect(parseOnlinePlayers('')).toBeNull();
    expect(parseOnlinePlayers('Unknown or incomplete command, see below for error')).toBeNull();
    expect(parseOnlinePlayers('There are 2 of a max of 20 players online: ')).toBeNull();
    expect(parseOnlinePlayers('There are 1 out of maximum 20 players online.\ndefault: Steve')).toBeNull();
  });
});

describe('isSafeBedrockPrefix', () => {
  it.each(['.', '*', '!', '#', '+', '-', 'BE_', '~'])('accepts %j', (prefix) => expect(isSafeBedrockPrefix(prefix)).toBe(true));
  it.each(['', '....', ' ', '. ', ';', '"', "'", '`', '/', '\\', '{', '}', '[', ']', '@', '§', '\n', '\0', 'é', '.\t'])('refuses %j', (prefix) =>
    expect(isSafeBedrockPrefix(prefix)).toBe(false),
  );
});

describe('isPlayerName', () => {
  it.each([
    ['Steve', null],
    ['notch_', null],
    ['A', null],
    ['_', null],
    ['1234567890123456', null],
    ['Steve', '.'],
    ['.Steve', '.'],
    ['.Bedrock_Player1', '.'],
    ['*Steve', '*'],
    ['BE_Steve', 'BE_'],
  ])('accepts %j (prefix %j)', (name, prefix) => expect(isPlayerName(name, prefix)).toBe(true));

  const hostile: Array<[string, string | null]> = [
    ['', null],
    ['Steve Jobs', null],
    [' Steve', null],
    ['Steve ', null],
    ['Steve;op Evil', null],
    ['Steve\nop Evil', null],
    ['Steve\rop Evil', null],
    ['Steve\t', null],
    ['Steve\0', null],
    ['/op Evil', null],
    ['Steve/', null],
    ['Steve"', null],
    ["Steve'", null],
    ['Ste`ve', null],
    ['Ste\\ve', null],
    ['§cSteve', null],
    ['Steve§', null],
    ['Stеve', null], // Cyrillic е
    ['Ｓteve', null], // fullwidth S
    ['Ste\u200bve', null], // zero-width space
    ['\u202eevetS', null], // right-to-left override
    ['A'.repeat(17), null],
    ['@a', null],
    ['@p', null],
    ['@e[type=minecraft:creeper]', null],
    ['@e[type=!player,limit=1]', null],
    ['{}', null],
    ['Steve{"text":"x"}', null],
    ['Steve[0]', null],
    ['Steve-1', null],
    ['.Steve', null],
    ['..Steve', '.'],
    ['.', '.'],
    ['.Steve;', '.'],
    ['.Ste ve', '.'],
    [`.${'A'.repeat(16)}`, '.'],
    ['Steve.', '.'],
    ['*Steve', '.'],
    ['@a', '@'],
    ['@Steve', '@'],
    [';Steve', ';'],
    ['/Steve', '/'],
    ['"Steve', '"'],
    ['{Steve', '{'],
  ];
  it.each(hostile)('refuses %j (prefix %j)', (name, prefix) => expect(isPlayerName(name, prefix)).toBe(false));
});

describe('commandSafeText', () => {
  it('keeps letters, digits, spaces and the safe punctuation', () => {
    expect(commandSafeText('Minecraft-MP.com')).toBe('Minecraft-MP.com');
    expect(commandSafeText('Top Servers #1 (EU): vote, win!? +5')).toBe('Top Servers #1 (EU): vote, win!? +5');
    expect(commandSafeText('Müller & Söhne')).toBe('Müller Söhne');
    expect(commandSafeText('42')).toBe('42');
  });

  it('removes what commands treat specially', () => {
    expect(commandSafeText('a/b;c"d\'e\\f{g}h[i]j§ k@l~m^n$o%p=q<r>s*t`u&v|w')).toBe('abcdefghij klmnopqrstuvw');
    expect(commandSafeText('say hi @a')).toBe('say hi a');
    expect(commandSafeText('§cRed §lbold')).toBe('Red bold');
    expect(commandSafeText('§')).toBeNull();
    expect(commandSafeText('{"text":"x","clickEvent":{"action":"run_command","value":"/op Evil"}}')).toBe('text:x,clickEvent:action:run_command,value:op Evil');
  });

  it('turns line breaks and runs of whitespace into one space, drops control and format characters', () => {
    expect(commandSafeText('  line one\nop Evil\r\n\t x  ')).toBe('line one op Evil x');
    expect(commandSafeText('a\u0000b\u0007c\u200bd\u202ee')).toBe('abcde');
    expect(commandSafeText('a\u00a0\u2003b')).toBe('a b');
    expect(commandSafeText('a @ b')).toBe('a b');
  });

  it('caps the length at 100 characters', () => {
    expect(commandSafeText('x'.repeat(150))).toBe('x'.repeat(100));
    expect(commandSafeText(`${'x'.repeat(99)} y`)).toBe('x'.repeat(99));
    expect(commandSafeText('é'.repeat(150))?.length).toBe(100);
  });

  it('returns null when nothing is left', () => {
    expect(commandSafeText('')).toBeNull();
    expect(commandSafeText('   \n\t')).toBeNull();
    expect(commandSafeText('"/;{}[]§@')).toBeNull();
  });
});

describe('answerMarksFailure', () => {
  it('finds the failure answers, whatever their case, and returns their line', () => {
    expect(answerMarksFailure('Unknown or incomplete command, see below for errorgiv Steve<--[HERE]')).toBe(
      'Unknown or incomplete command, see below for errorgiv Steve<--[HERE]',
    );
    expect(answerMarksFailure('No player was found')).toBe('No player was found');
    expect(answerMarksFailure('§cUnknown command. Type "/help" for help.\n')).toBe('Unknown command. Type "/help" for help.');
    expect(answerMarksFailure('INCORRECT ARGUMENT FOR COMMAND')).toBe('INCORRECT ARGUMENT FOR COMMAND');
    expect(answerMarksFailure('Expected whitespace to end one argument, but found trailing data')).toBe(
      'Expected whitespace to end one argument, but found trailing data',
    );
    expect(answerMarksFailure('Invalid name or UUID')).toBe('Invalid name or UUID');
    expect(answerMarksFailure('Error: That player does not exist')).toBe('Error: That player does not exist');
    expect(answerMarksFailure('Done.\nError: Player not found.')).toBe('Error: Player not found.');
    expect(answerMarksFailure("Can't find element")).toBe("Can't find element");
    expect(answerMarksFailure(`No player was found ${'x'.repeat(300)}`)?.length).toBe(200);
  });

  it('returns null for answers of commands that worked', () => {
    expect(answerMarksFailure('')).toBeNull();
    expect(answerMarksFailure('Gave 1 [Diamond] to Steve')).toBeNull();
    expect(answerMarksFailure('There are 1 of a max of 20 players online: Steve')).toBeNull();
  });
});
