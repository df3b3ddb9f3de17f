// Previous / Next over a paged list, with "Page 2 of 5 (230 votes)" (or another noun: "(3 voters)").
import { plural } from './plural';

export function Pager({
  page,
  pages,
  total,
  onPage,
  noun = 'vote',
}: {
  page: number;
  pages: number;
  total: number;
  onPage(page: number): void;
  /** What the list holds, in the singular (a regular English plural). */
  noun?: string;
}) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {Math.max(1, pages)} ({plural(total, noun)})
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
