// Redraws that never swallow a click. The page is rebuilt on every change; a
// rebuild between a button's mousedown and mouseup (a message arriving, the
// countdown ticking) would leave the mouseup on a new element and the browser
// would fire no click. So while a pointer is down, a redraw waits until just
// after the click has been dispatched.
export function guardedRedraw(draw: () => void): () => void {
  let down = false;
  let pending = false;
  window.addEventListener('pointerdown', () => (down = true), true);
  const release = (): void => {
    down = false;
    // The click event follows pointerup in the same task; redraw after it.
    window.setTimeout(() => {
      if (pending && !down) {
        pending = false;
        draw();
      }
    }, 0);
  };
  window.addEventListener('pointerup', release, true);
  window.addEventListener('pointercancel', release, true);
  return () => {
    if (down) pending = true;
    else draw();
  };
}
