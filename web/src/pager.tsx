// Previous / Next over a paged list, with "Page 2 of 5 (230 votes)".
import { plural } from './plural';

export function Pager({ page, pages, total, onPage }: { page: number; pages: number; total: number; onPage(page: number): void }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {Math.max(1, pages)} ({plural(total, 'vote')})
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
