import type { Locator } from '@playwright/test';

// Select boxes whose chosen option's text is wider than the box (the browser cuts it with no sign):
// shared by the layout specs.

/** Select boxes whose shown option is wider than the room the box gives it. */
export async function getCutSelects(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    return [...root.querySelectorAll('select')]
      .filter((s) => s.getClientRects().length > 0 && s.offsetWidth > 0)
      .flatMap((s) => {
        const cs = getComputedStyle(s);
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const text = s.selectedOptions[0]?.textContent ?? '';
        const need = ctx.measureText(text).width;
        // The arrow takes about 20 px of the box besides its padding.
        const room =
          s.clientWidth - Number.parseFloat(cs.paddingLeft) - Number.parseFloat(cs.paddingRight) - 18;
        return need > room + 0.5
          ? [
              `${s.dataset.testid ?? s.getAttribute('aria-label') ?? s.name}: "${text}" needs ${need.toFixed(0)} px, has ${room.toFixed(0)}`,
            ]
          : [];
      });
  });
}
