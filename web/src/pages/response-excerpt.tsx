// What a delivery attempt got back (DeliveryAttempt.responseExcerpt): an HTTP answer's first bytes, or an RCON
// callback's answer to each command, one a line ("1> Gave 1 [Diamond] to Steve"). Shown as it was received, in a
// monospace box that wraps long lines anywhere (a phone's width never scrolls sideways for it) and shows the first
// few lines, with "Show all" when there is more.
import { useLayoutEffect, useRef, useState } from 'react';
import { plural } from '../plural';

/** The lines shown before "Show all" (the box's height in styles.css: .response-excerpt.clamped). */
const SHOWN_LINES = 4;

/** Whether the text is an RCON callback's answers ("1> …" for the first command, "2> …" for the next). */
export const isCommandAnswers = (text: string) => /^1> /.test(text);

export function ResponseExcerpt({ id, text }: { id: string; text: string }) {
  const [open, setOpen] = useState(false);
  // Measured while closed: the box cut at SHOWN_LINES lines (wrapped lines count) hides some of its text.
  const [cut, setCut] = useState(false);
  const ref = useRef<HTMLPreElement>(null);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || open) return;
    const measure = () => setCut(box.scrollHeight > box.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [open]);
  const lines = text.split('\n').length;
  const commands = isCommandAnswers(text);
  const boxId = `${id}-answer`;
  return (
    <figure className="response">
      <figcaption className="response-label">{commands ? `Command answers (${plural(lines, 'command')})` : 'Answer'}</figcaption>
      <div className="response-box">
        <pre id={boxId} ref={ref} className={open ? 'response-excerpt' : 'response-excerpt clamped'} data-testid="response-excerpt">
          {text}
        </pre>
      </div>
      {(cut || open) && (
        <button type="button" className="link response-toggle" aria-expanded={open} aria-controls={boxId} onClick={() => setOpen(!open)}>
          {open ? 'Show less' : lines > SHOWN_LINES ? `Show all ${plural(lines, 'line')}` : 'Show all'}
        </button>
      )}
    </figure>
  );
}
