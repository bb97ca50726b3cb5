/** The small "Laying out 12 / 40 regions… [Cancel]" bar over the graph. Plain DOM, text only. */
import { palette, type ThemeName } from '../theme/index.js';
import type { GraphProgress } from './api.js';

export class ProgressBar {
  private readonly el: HTMLDivElement;
  private readonly text: HTMLSpanElement;

  constructor(parent: HTMLElement, onCancel: () => void) {
    this.el = document.createElement('div');
    this.el.className = 'tlab-graph-progress';
    this.el.setAttribute('role', 'status');
    this.el.style.cssText =
      'position:absolute;left:50%;top:12px;transform:translateX(-50%);display:none;gap:10px;align-items:center;padding:6px 10px;border-radius:6px;font:12px system-ui,sans-serif;box-shadow:0 1px 4px rgba(0,0,0,.25);z-index:3';
    this.text = document.createElement('span');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Cancel';
    button.addEventListener('click', onCancel);
    this.el.append(this.text, button);
    parent.appendChild(this.el);
  }

  show(on: boolean, theme: ThemeName): void {
    const pal = palette(theme);
    this.el.style.display = on ? 'flex' : 'none';
    this.el.style.background = pal.surface;
    this.el.style.color = pal.text;
  }

  set(p: GraphProgress | null): void {
    this.text.textContent = p ? `${p.phase === 'layout' ? 'Laying out' : 'Loading'} ${p.done} / ${p.total} regions…` : '';
  }

  destroy(): void {
    this.el.remove();
  }
}
