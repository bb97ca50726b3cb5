/**
 * Where windows open: the size, position and maximised state of the last window the user moved, resized or
 * closed, kept in `userData/window-state.json`. A position that is on no display any more (a monitor was
 * unplugged) is dropped, so the window opens centred on a screen that exists.
 */
import { join } from 'node:path';
import type { Electron } from './seam.js';
import { JsonFile, readJson } from './store.js';

export interface WindowState {
  x: number | null;
  y: number | null;
  width: number;
  height: number;
  maximized: boolean;
}

const FORMAT = 'transient-lab/window-state@1';
export const DEFAULT_STATE: WindowState = { x: null, y: null, width: 1440, height: 900, maximized: false };
const MIN = { width: 640, height: 420 };
/** New windows step down and right from the last one, so that none hides another exactly. */
export const CASCADE = 28;

const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 100_000 ? v : null);

function check(x: unknown): WindowState | null {
  if (typeof x !== 'object' || x === null || (x as { schema?: unknown }).schema !== FORMAT) return null;
  const s = x as Record<string, unknown>;
  const width = int(s.width);
  const height = int(s.height);
  if (width === null || height === null) return null;
  return {
    x: int(s.x),
    y: int(s.y),
    width: Math.max(MIN.width, width),
    height: Math.max(MIN.height, height),
    maximized: s.maximized === true,
  };
}

type Rect = { x: number; y: number; width: number; height: number };

/** The state with its position dropped unless the window's top-left area lies on one of `displays`. */
export function onScreen(state: WindowState, displays: readonly Pick<Electron.Display, 'workArea'>[]): WindowState {
  if (state.x === null || state.y === null) return state;
  const { x, y } = state;
  const visible = displays.some(
    ({ workArea: a }: { workArea: Rect }) => x + 80 > a.x && x < a.x + a.width - 80 && y >= a.y - 10 && y < a.y + a.height - 60,
  );
  return visible ? state : { ...state, x: null, y: null };
}

export class WindowStateStore {
  private current: WindowState = DEFAULT_STATE;

  private constructor(private readonly file: JsonFile<unknown>) {}

  static async load(userData: string, onError: (err: unknown) => void): Promise<WindowStateStore> {
    const path = join(userData, 'window-state.json');
    const s = new WindowStateStore(new JsonFile(path, onError));
    s.current = await readJson(path, check, DEFAULT_STATE);
    return s;
  }

  get(): WindowState {
    return this.current;
  }

  /** Records a window's bounds (normal bounds when maximised) and writes them. */
  remember(bounds: Rect, maximized: boolean): Promise<void> {
    this.current = {
      x: bounds.x,
      y: bounds.y,
      width: Math.max(MIN.width, bounds.width),
      height: Math.max(MIN.height, bounds.height),
      maximized,
    };
    return this.file.save({ schema: FORMAT, ...this.current });
  }

  flush(): Promise<void> {
    return this.file.flush();
  }
}
