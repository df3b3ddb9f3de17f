// The hook request log as a table (a provider's Requests view and the organization-level one share it): newest
// first, one row per request or Votifier session; a row opens its full record, and a refused one says in words what
// to fix. Also the outcome filter and the "N more refused requests from ADDRESS not kept" notes.
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { Breakable } from '../../breakable';
import { plural } from '../../plural';
import { Time } from '../../time';
import type { HookRequestOutcome, HookRequestProtocol } from '../../gql/graphql';

export interface LoggedRequest {
  id: string;
  receivedAt: string;
  clientIp: string;
  method: string;
  path: string;
  protocol: HookRequestProtocol;
  outcome: HookRequestOutcome;
  status: number;
  errorCode?: string | null;
  reason?: string | null;
  hint?: string | null;
  voterName?: string | null;
  voteId?: string | null;
  durationMs: number;
  headers: unknown;
  body: string;
  bodyBytes: number;
  providerKey: string;
}

export interface Drop {
  clientIp: string;
  count: number;
  firstAt: string;
  lastAt: string;
}

export const OUTCOMES: { value: HookRequestOutcome; label: string }[] = [
  { value: 'accepted', label: 'accepted (a vote stored)' },
  { value: 'duplicate', label: 'duplicate (sent again)' },
  { value: 'test', label: "test (the site's test ping)" },
  { value: 'ignored', label: 'ignored (not a vote event)' },
  { value: 'refused', label: 'refused' },
];

const PROTOCOL_WORDS: Record<HookRequestProtocol, string> = {
  http: 'HTTP (the webhook URL)',
  votifier_v1: 'Votifier v1 (public key)',
  votifier_v2: 'Votifier v2 (token)',
  test_vote: 'Test vote (sent from this dashboard)',
};

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const took = (ms: number) => (ms < 1_000 ? `${ms} ms` : `${(ms / 1_000).toFixed(1)} s`);

export function OutcomeBadge({ outcome }: { outcome: HookRequestOutcome }) {
  return <span className={`badge outcome outcome-${outcome}`}>{outcome}</span>;
}

export function OutcomeFilter({ value, onChange, id }: { value: HookRequestOutcome | ''; onChange: (v: HookRequestOutcome | '') => void; id: string }) {
  return (
    <div className="filters">
      <label htmlFor={id}>
        Outcome
        <select id={id} value={value} onChange={(e) => onChange(e.target.value as HookRequestOutcome | '')}>
          <option value="">every outcome</option>
          {OUTCOMES.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** Refused requests an address sent beyond what the log keeps for it: counted, so a flood is visible but not stored. */
export function DropNotes({ drops }: { drops: Drop[] }) {
  if (drops.length === 0) return null;
  return (
    <ul className="drops" aria-label="Requests not kept">
      {drops.map((d) => (
        <li key={d.clientIp}>
          <strong>{plural(d.count, 'more refused request')}</strong> from <code>{d.clientIp}</code> not kept{' '}
          <span className="muted">
            (<Time value={d.firstAt} /> to <Time value={d.lastAt} />)
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A body excerpt as it is easiest to read: JSON indented when the whole body was kept and is JSON. */
function readableBody(r: LoggedRequest): string {
  if (r.body && r.bodyBytes === r.body.length) {
    try {
      return JSON.stringify(JSON.parse(r.body), null, 2);
    } catch {
      // not JSON: as received
    }
  }
  return r.body;
}

export function RequestDetail({ request: r }: { request: LoggedRequest }) {
  const headers = r.headers && typeof r.headers === 'object' ? Object.entries(r.headers as Record<string, unknown>) : [];
  return (
    <div className="request-detail" id={`request-${r.id}`}>
      {r.hint && (
        <p className={`fix fix-${r.outcome}`} role="note">
          <strong>{r.outcome === 'refused' ? 'What to fix: ' : 'Why: '}</strong>
          {sentence(r.hint)}.
        </p>
      )}
      <dl className="facts fit">
        <dt>Received</dt>
        <dd>
          <Time value={r.receivedAt} />
        </dd>
        <dt>Method</dt>
        <dd>
          <code>{r.method}</code>
        </dd>
        <dt>Path</dt>
        <dd>
          <code>
            <Breakable text={r.path} />
          </code>
        </dd>
        <dt>Protocol</dt>
        <dd>{PROTOCOL_WORDS[r.protocol] ?? r.protocol}</dd>
        <dt>Answer</dt>
        <dd>
          {r.status}
          {r.errorCode && (
            <>
              {' '}
              <code>{r.errorCode}</code>
            </>
          )}
        </dd>
        <dt>Reason</dt>
        <dd>{r.reason ?? <span className="muted">—</span>}</dd>
        <dt>Client address</dt>
        <dd>
          <code>{r.clientIp}</code>
        </dd>
        <dt>Provider key</dt>
        <dd>
          <code>{r.providerKey}</code>
        </dd>
        <dt>Voter</dt>
        <dd>{r.voterName ?? <span className="muted">—</span>}</dd>
        <dt>Vote</dt>
        <dd>
          {r.voteId ? (
            <Link className="vote-id" to={`/votes/${encodeURIComponent(r.voteId)}`}>
              {r.voteId}
            </Link>
          ) : (
            <span className="muted">—</span>
          )}
        </dd>
        <dt>Time taken</dt>
        <dd>{took(r.durationMs)}</dd>
      </dl>
      <h3>Headers</h3>
      {headers.length === 0 ? (
        <p className="muted">None kept.</p>
      ) : (
        <table className="headers">
          <tbody>
            {headers.map(([name, value]) => (
              <tr key={name}>
                <th scope="row">
                  <code>{name}</code>
                </th>
                <td>
                  <code>
                    <Breakable text={String(value)} />
                  </code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>
        Body{' '}
        {r.bodyBytes > r.body.length ? `(the first ${plural(r.body.length, 'byte')} of ${plural(r.bodyBytes, 'byte')})` : `(${plural(r.bodyBytes, 'byte')})`}
      </h3>
      {r.body ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls, and a keyboard must be able to scroll it too (a named region, so a screen reader says what has the focus).
        <section className="body-excerpt" tabIndex={0} aria-label="Body excerpt">
          <pre>{readableBody(r)}</pre>
        </section>
      ) : (
        <p className="muted">Empty.</p>
      )}
      <p className="muted">Secrets (auth headers, signatures, cookies, secret path segments and values) are redacted before anything is kept.</p>
    </div>
  );
}

/**
 * `showKey`: the organization-level log, where the key as typed is what tells the requests apart. On a phone each
 * row becomes a small card (CSS, with each cell's data-label), so what to fix is in view without scrolling sideways;
 * the explicit roles keep it a table for screen readers whatever its display.
 */
// biome-ignore-start lint/a11y/noRedundantRoles: on a phone the table's parts get display: block or grid, which makes some browsers (WebKit) drop their implicit table roles, so they are stated
export function RequestsTable({ requests, showKey = false, label }: { requests: LoggedRequest[]; showKey?: boolean; label: string }) {
  const [open, setOpen] = useState<string | null>(null);
  const columns = showKey ? 8 : 7;
  return (
    <div className="table-wrap">
      <table className="list requests-table" role="table" aria-label={label} data-testid="requests-table">
        <thead role="rowgroup">
          <tr role="row">
            <th role="columnheader" scope="col">
              Time
            </th>
            {showKey && (
              <th role="columnheader" scope="col">
                Key as typed
              </th>
            )}
            <th role="columnheader" scope="col">
              Outcome
            </th>
            <th role="columnheader" scope="col" className="num">
              Status
            </th>
            <th role="columnheader" scope="col">
              Code
            </th>
            <th role="columnheader" scope="col">
              Client address
            </th>
            <th role="columnheader" scope="col">
              Voter
            </th>
            <th role="columnheader" scope="col" className="num">
              Time taken
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {requests.map((r) => {
            const opened = open === r.id;
            return (
              <Fragment key={r.id}>
                <tr role="row" className={`request-row outcome-row-${r.outcome}${opened ? ' opened' : ''}`} onClick={() => setOpen(opened ? null : r.id)}>
                  <td role="cell" data-label="Time">
                    <button
                      type="button"
                      className="link row-open"
                      aria-expanded={opened}
                      aria-controls={opened ? `request-${r.id}` : undefined}
                      onClick={(e) => {
                        e.stopPropagation();
                        setOpen(opened ? null : r.id);
                      }}
                    >
                      <Time value={r.receivedAt} />
                    </button>
                  </td>
                  {showKey && (
                    <td role="cell" data-label="Key as typed">
                      <code>{r.providerKey}</code>
                    </td>
                  )}
                  <td role="cell" data-label="Outcome">
                    <OutcomeBadge outcome={r.outcome} />
                  </td>
                  <td role="cell" data-label="Status" className="num">
                    {r.status}
                  </td>
                  <td role="cell" data-label="Code" className="reason">
                    {r.errorCode ? <code>{r.errorCode}</code> : <span className="muted">—</span>}
                    {r.outcome === 'refused' && r.hint && <p className="fix-inline">{sentence(r.hint)}</p>}
                  </td>
                  <td role="cell" data-label="Client address">
                    <code>{r.clientIp}</code>
                  </td>
                  <td role="cell" data-label="Voter">
                    {r.voterName ?? <span className="muted">—</span>}
                  </td>
                  <td role="cell" data-label="Time taken" className="num">
                    {took(r.durationMs)}
                  </td>
                </tr>
                {opened && (
                  <tr role="row" className="detail-row">
                    <td role="cell" colSpan={columns}>
                      <RequestDetail request={r} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
// biome-ignore-end lint/a11y/noRedundantRoles: the end of RequestsTable (reason at its start)
