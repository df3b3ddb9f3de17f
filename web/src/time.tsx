/** A time in the browser's zone, with the UTC instant on hover. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">—</span>;
  const date = new Date(value);
  return (
    <time
      dateTime={date.toISOString()}
      title={`${date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')}`}
    >
      {date.toLocaleString()}
    </time>
  );
}
