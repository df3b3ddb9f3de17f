// Parked RCON votes come back when their player is online: every RCON_ONLINE_POLL, each RCON callback that holds
// parked jobs (and only those) is asked `list`, and the jobs of players it shows are made due again. Making one due is
// one conditional update (status parked → pending), so with several instances polling, each job is woken once and
// then claimed by exactly one worker; a restart finds the parked rows as they were.
import type { AppDeps } from '../../../app/deps.js';
import { openSettings, setting, type SettingField } from '../settings-schema.js';
import { isOnline, parseOnlinePlayers } from './players.js';
import { rconPoolOf, rconTarget } from './rcon-pool.js';
import { backgroundLoop } from '../../../base/background-loop.js';

/** Parked jobs of one callback read per poll (the oldest first); the rest wait for the next poll. */
const PARKED_PER_POLL = 1_000;

/** Whose job a parked job is: its vote's voter, or the reminder's (an event job carries its data). */
function playerOfJob(job: { payloadJson: string | null; vote: { voterName: string } | null }): string | null {
  if (job.payloadJson) {
    try {
      const data = JSON.parse(job.payloadJson) as { reminder?: { voterName?: string } };
      if (data.reminder?.voterName) return data.reminder.voterName;
    } catch {
      // not an event's data
    }
  }
  return job.vote?.voterName ?? null;
}

/** One poll: every RCON callback holding parked jobs; returns how many jobs were made due. */
export async function pollParked(deps: AppDeps, kind: { name: string; settings: readonly SettingField[] }): Promise<number> {
  const { prisma } = deps.db;
  const holders = await prisma.deliveryJob.groupBy({ by: ['callbackId'], where: { status: 'parked', callbackId: { not: null } } });
  let woken = 0;
  for (const { callbackId } of holders) {
    const callback = callbackId ? await prisma.callback.findUnique({ where: { id: callbackId } }) : null;
    if (!callback || callback.kind !== kind.name || !callback.enabled) continue;
    const values = openSettings(kind.settings, callback, deps.secrets);
    let players: string[] | null;
    try {
      const connection = await rconPoolOf(deps).get(rconTarget(values, callback.timeoutMs));
      players = parseOnlinePlayers(await connection.run('list'));
    } catch (err) {
      deps.logger.info(
        { callbackId, target: `${setting(values, 'host')}:${setting(values, 'port')}`, err: (err as Error).message },
        `callback "${callback.name}" (rcon): could not ask who is online; its parked votes wait for the next check`,
      );
      continue;
    }
    if (!players || players.length === 0) continue;
    const parked = await prisma.deliveryJob.findMany({
      where: { callbackId: callback.id, status: 'parked' },
      select: { id: true, payloadJson: true, vote: { select: { voterName: true } } },
      orderBy: { parkedAt: 'asc' },
      take: PARKED_PER_POLL,
    });
    const due = parked.filter((job) => {
      const player = playerOfJob(job);
      return player !== null && isOnline(players, player);
    });
    if (due.length === 0) continue;
    const now = deps.clock.now();
    const { count } = await prisma.deliveryJob.updateMany({
      where: { id: { in: due.map((j) => j.id) }, status: 'parked' },
      data: { status: 'pending', runAt: now, parkedAt: null, parkedBy: null, lockedBy: null, lockedUntil: null },
    });
    woken += count;
  }
  return woken;
}

/** The loop: a poll every RCON_ONLINE_POLL (0: never in this process), waking the worker when jobs became due. */
export function startOnlinePoll(deps: AppDeps, kind: { name: string; settings: readonly SettingField[] }, wake: () => void): { stop(): Promise<void> } {
  const loop = backgroundLoop({
    everyMs: deps.config.rconOnlinePollMs,
    atStart: false,
    pass: async () => {
      if ((await pollParked(deps, kind)) > 0) wake();
    },
    failed: (err) => deps.logger.error({ err }, 'the check of parked RCON votes failed; it runs again at the next interval'),
  });
  loop.start();
  return { stop: loop.stop };
}
