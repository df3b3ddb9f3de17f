// The players' vote page (README "Vote page"), public: GET /vote/:slug (server-rendered HTML that works with
// JavaScript off, laid out for a phone first, under the dashboard's strict CSP: its only style is the stylesheet
// below, its only script none), GET /vote/:slug.json (the same as JSON, CORS open, for an in-game /vote command or a
// bot) and GET /vote/:slug/go/:provider (a button's click, recorded, then a 302 to the site). Every request spends
// from the client address's own budget (VOTE_PAGE_RATE_LIMIT_PER_MINUTE), apart from the hooks'.
import express, { type Request, type Response, type Router } from 'express';
import type { AppDeps } from '../app/deps.js';
import { AppError, toAppErrorShape } from '../base/errors.js';
import { takePoint } from '../auth/rate-limits.js';
import { deliveryWords, OVER_LIMIT_WORDS } from '../domain/vote-page.js';
import type { VotePage, VotePageService } from '../modules/vote-page/vote-page.service.js';
import { sendError } from './error-response.js';

export const VOTE_PAGE_CSS_PATH = '/vote/assets/vote.css';

const CSS = `*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#0f1115;color:#e8eaed}
main{max-width:40rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
a{color:#8ab4f8}
form{display:flex;gap:.5rem;flex-wrap:wrap;margin:0 0 1rem}
input{flex:1 1 12rem;min-width:0;font:inherit;padding:.6rem .7rem;border-radius:.5rem;border:1px solid #3c4043;background:#1b1e24;color:inherit}
button{font:inherit;padding:.6rem 1rem;border-radius:.5rem;border:0;background:#8ab4f8;color:#0f1115;font-weight:600}
ul{list-style:none;margin:0;padding:0}
.site{display:flex;align-items:center;justify-content:space-between;gap:.75rem;padding:.75rem;border:1px solid #2a2e35;border-radius:.75rem;margin:0 0 .5rem;background:#161a20}
.site .name{font-weight:600;overflow-wrap:anywhere}
.site .state{font-size:.9rem;color:#9aa0a6}
.site .state.ready{color:#81c995}
.go{flex:none;display:inline-block;padding:.55rem .9rem;border-radius:.5rem;background:#8ab4f8;color:#0f1115;font-weight:600;text-decoration:none;white-space:nowrap}
.go.wait{background:#2a2e35;color:#e8eaed}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(8rem,1fr));gap:.5rem}
.stat{padding:.75rem;border-radius:.75rem;background:#161a20;border:1px solid #2a2e35}
.stat b{display:block;font-size:1.4rem}
.receipt li{padding:.6rem 0;border-bottom:1px solid #2a2e35}
.receipt .when{color:#9aa0a6;font-size:.9rem}
.receipt .line{display:block;overflow-wrap:anywhere}
.failed{color:#f28b82}
.note{color:#9aa0a6}
.board li{display:flex;justify-content:space-between;gap:1rem;padding:.35rem 0;overflow-wrap:anywhere}
`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A time in the organization's zone, as the page shows it: "12:03", or "27 Nov 12:03" for another day. */
function timeIn(timeZone: string, now: Date) {
  const day = (d: Date) => d.toLocaleDateString('en-GB', { timeZone, day: 'numeric', month: 'short' });
  const clock = (d: Date) => d.toLocaleTimeString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' });
  return (at: Date) => (day(at) === day(now) ? clock(at) : `${day(at)} ${clock(at)}`);
}

export function renderVotePage(page: VotePage, now: Date, problem: string | null = null): string {
  const time = timeIn(page.timeZone, now);
  const player = page.player;
  const sites = page.sites
    .map((site) => {
      const ready = site.state === 'vote now';
      return `<li class="site"><div><div class="name">${escapeHtml(site.name)}</div><div class="state${ready ? ' ready' : ''}">${escapeHtml(site.state)}</div></div>
<a class="go${ready ? '' : ' wait'}" href="${escapeHtml(site.goUrl)}" rel="nofollow noopener">Vote</a></li>`;
    })
    .join('\n');
  const stats = player
    ? `<h2>${escapeHtml(player.name)}</h2>
${player.known ? '' : '<p class="note">No vote under this name yet. Vote on a site below, with exactly this name.</p>'}
<div class="stats"><div class="stat"><b>${player.streakDays}</b>day streak</div><div class="stat"><b>${player.total}</b>votes in all</div>${
        player.nextMilestone
          ? `<div class="stat"><b>${player.nextMilestone.remaining}</b>${player.nextMilestone.type === 'streak' ? 'more days to a' : 'more votes to'} ${player.nextMilestone.value}${player.nextMilestone.type === 'streak' ? '-day streak' : ''}</div>`
          : ''
      }${page.party ? `<div class="stat"><b>${page.party.count}/${page.party.every}</b>vote party (${page.party.remaining} to go)</div>` : ''}</div>`
    : page.party
      ? `<div class="stats"><div class="stat"><b>${page.party.count}/${page.party.every}</b>vote party (${page.party.remaining} to go)</div></div>`
      : '';
  const receipt = player?.known
    ? `<h2>Your votes (30 days)</h2>${
        player.receipt.length === 0
          ? '<p class="note">No vote in the last 30 days.</p>'
          : `<ul class="receipt">${player.receipt
              .map(
                (vote) =>
                  `<li><span class="when">${escapeHtml(vote.provider)} · ${escapeHtml(time(vote.receivedAt))}</span>${
                    vote.overLimit
                      ? `<span class="line note">${escapeHtml(OVER_LIMIT_WORDS)}</span>`
                      : vote.deliveries.length === 0
                        ? '<span class="line note">received (this server gives nothing for votes yet)</span>'
                        : vote.deliveries
                            .map((d) => `<span class="line${d.status === 'failed' ? ' failed' : ''}">${escapeHtml(deliveryWords(d, time))}</span>`)
                            .join('')
                  }</li>`,
              )
              .join('')}</ul>`
      }`
    : '';
  const board = page.leaderboard
    ? `<h2>Top voters (30 days)</h2>${
        page.leaderboard.length === 0
          ? '<p class="note">No votes yet.</p>'
          : `<ol class="board">${page.leaderboard.map((v) => `<li><span>${escapeHtml(v.name)}</span><span>${v.votes}</span></li>`).join('')}</ol>`
      }`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)}</title><link rel="stylesheet" href="${VOTE_PAGE_CSS_PATH}"></head>
<body><main>
<h1>${escapeHtml(page.title)}</h1>
<form method="get" action="/vote/${escapeHtml(encodeURIComponent(page.slug))}"><input name="player" placeholder="Your name in game" value="${escapeHtml(player?.name ?? '')}" maxlength="32" autocomplete="nickname" aria-label="Your name in game"><button type="submit">Show my votes</button></form>
${problem ? `<p class="failed">${escapeHtml(problem)}</p>` : ''}
${stats}
<h2>Vote</h2>
${page.sites.length === 0 ? '<p class="note">No site to vote on yet.</p>' : `<ul>${sites}</ul>`}
${receipt}
${board}
</main></body></html>`;
}

/** The JSON answer (GET /vote/:slug.json). */
function pageJson(page: VotePage, publicBaseUrl: string) {
  return {
    title: page.title,
    organization: { slug: page.slug, name: page.organizationName },
    sites: page.sites.map((s) => ({
      key: s.key,
      name: s.name,
      go_url: `${publicBaseUrl}${s.goUrl}`,
      voted_at: s.votedAt,
      next_vote_at: s.nextVoteAt,
      status: s.state,
    })),
    player: page.player && {
      name: page.player.name,
      known: page.player.known,
      total: page.player.total,
      streak_days: page.player.streakDays,
      next_milestone: page.player.nextMilestone,
      receipt: page.player.receipt.map((v) => ({
        vote_id: v.voteId,
        provider: v.provider,
        received_at: v.receivedAt,
        over_limit: v.overLimit,
        deliveries: v.deliveries.map((d) => ({ target: d.target, status: d.status, time: d.at, ...(d.reason ? { reason: d.reason } : {}) })),
      })),
    },
    vote_party: page.party,
    leaderboard: page.leaderboard,
  };
}

export function votePageRouter(deps: AppDeps, service: VotePageService): Router {
  const router = express.Router();
  router.get('/assets/vote.css', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/css').send(CSS);
  });
  /** The address's budget; false (and the answer sent) when it is spent. */
  const budget = async (req: Request, res: Response, json: boolean): Promise<boolean> => {
    const outcome = await takePoint(deps.limits.votePage, req.ip ?? 'unknown');
    if (outcome.allowed) return true;
    res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
    if (json)
      sendError(res, req.requestId, 'RATE_LIMITED', `Too many requests; retry in ${outcome.retryAfterSeconds} s`, {
        retry_after_seconds: outcome.retryAfterSeconds,
      });
    else
      res
        .status(429)
        .type('html')
        .send(message('Too many requests', `Too many requests from your address; try again in ${outcome.retryAfterSeconds} s.`));
    return false;
  };
  const fail = (req: Request, res: Response, err: unknown, json: boolean) => {
    const shape = err instanceof AppError ? toAppErrorShape(err) : null;
    if (!shape) throw err;
    if (json) return sendError(res, req.requestId, shape.code, shape.message, shape.details);
    const status = shape.code === 'NOT_FOUND' ? 404 : 400;
    res
      .status(status)
      .type('html')
      .send(message(status === 404 ? 'Not found' : 'Not a player name', status === 404 ? 'There is no vote page here.' : shape.message));
  };

  router.get('/:slug/go/:provider', async (req: Request, res: Response) => {
    if (!(await budget(req, res, false))) return;
    try {
      const url = await service.click(String(req.params.slug), String(req.params.provider), queryText(req, 'player'), req.ip ?? 'unknown');
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, url);
    } catch (err) {
      fail(req, res, err, false);
    }
  });
  router.get('/:page', async (req: Request, res: Response) => {
    const page = String(req.params.page);
    const json = page.endsWith('.json');
    if (json) res.setHeader('Access-Control-Allow-Origin', '*');
    if (!(await budget(req, res, json))) return;
    try {
      const read = await service.read(json ? page.slice(0, -'.json'.length) : page, queryText(req, 'player'));
      res.setHeader('Cache-Control', 'no-store');
      if (json) return void res.json({ data: pageJson(read, deps.config.publicBaseUrl), meta: { request_id: req.requestId } });
      res.type('html').send(renderVotePage(read, deps.clock.now()));
    } catch (err) {
      // A bad name on the HTML page: the page without a player, saying what was wrong with it.
      if (!json && err instanceof AppError && err.code === 'VALIDATION_ERROR') {
        try {
          const read = await service.read(page, null);
          return void res
            .status(400)
            .type('html')
            .send(
              renderVotePage(
                read,
                deps.clock.now(),
                `That name cannot be looked up: it ${(err.details as { message?: string }[] | undefined)?.[0]?.message ?? 'is not valid'}.`,
              ),
            );
        } catch (again) {
          return fail(req, res, again, false);
        }
      }
      fail(req, res, err, json);
    }
  });
  return router;
}

/** A query parameter given once as text, or null; given twice it is neither (a name is one value). */
function queryText(req: Request, name: string): string | null {
  const value = req.query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new AppError('VALIDATION_ERROR', `${name} must be given once`);
  return value;
}

function message(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="stylesheet" href="${VOTE_PAGE_CSS_PATH}"></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`;
}
