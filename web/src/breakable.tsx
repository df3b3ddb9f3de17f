// Long machine text (URLs, paths, addresses) in running text or a table cell: it wraps only after a separator
// (/ ? & = #, never inside "://") or a space ("discord role 1576…"), never inside a segment; a segment wider than the
// space scrolls in its own box instead of breaking, so a URL keeps its parts whole at a phone's width.
import { Fragment } from 'react';

/** After a separator that is not followed by another slash ("https://" stays whole), or after a space. */
const BREAK_AFTER = /(?<=[/?&=#\s])(?!\/)/;

export function Breakable({ text, className }: { text: string; className?: string }) {
  const parts = text.split(BREAK_AFTER);
  return (
    <span className={className ? `breakable ${className}` : 'breakable'}>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one string in their order, with no state; the same segment may repeat ("a/a/").
        <Fragment key={i}>
          {i > 0 && <wbr />}
          <span className="segment">{part}</span>
        </Fragment>
      ))}
    </span>
  );
}
