/** The few line icons the window uses (inline SVG: no icon font, nothing fetched). */
const PATHS: Record<string, string> = {
  file: 'M4 1.5h5l3 3v10H4z M9 1.5v3h3',
  open: 'M1.5 4.5v9h11l2-6h-11l-2 6 M1.5 4.5v-2h4l1.5 1.5h5v2',
  play: 'M4.5 2.5v11l9-5.5z',
  stop: 'M4 4h8v8H4z',
  export: 'M8 1.5v8 M4.5 5 8 1.5 11.5 5 M2.5 10v4h11v-4',
  sun: 'M8 5a3 3 0 1 0 0 6 3 3 0 0 0 0-6z M8 1v1.5 M8 13.5V15 M1 8h1.5 M13.5 8H15 M3 3l1 1 M12 12l1 1 M3 13l1-1 M12 4l1-1',
  moon: 'M13 10A6 6 0 0 1 6 3a6 6 0 1 0 7 7z',
  folder: 'M1.5 3.5h5l1.5 1.5h6.5v8.5h-13z',
  up: 'M8 13V3 M4 7l4-4 4 4',
  close: 'M4 4l8 8 M12 4l-8 8',
  copy: 'M5.5 5.5h8v8h-8z M2.5 10.5v-8h8',
  search: 'M7 2.5a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9z M10.5 10.5 14 14',
  upload: 'M8 10.5v-8 M4.5 6 8 2.5 11.5 6 M2.5 10v4h11v-4',
  chart: 'M2 14V2 M2 14h12 M5 11V8 M8 11V5 M11 11V7',
  target: 'M8 2a6 6 0 1 0 0 12A6 6 0 0 0 8 2z M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z',
  fit: 'M2 6V2h4 M10 2h4v4 M14 10v4h-4 M6 14H2v-4',
  result: 'M3 1.5h10v13H3z M5.5 11V8.5 M8 11V5 M10.5 11V7',
  check: 'M3 8.5l3 3 7-7',
  warn: 'M8 2 1.5 13.5h13z M8 6v4 M8 11.5v.5',
  chip: 'M4 4h8v8H4z M6 1.5V4 M10 1.5V4 M6 12v2.5 M10 12v2.5 M1.5 6H4 M1.5 10H4 M12 6h2.5 M12 10h2.5',
};

export function Icon({ name, size = 14 }: { name: keyof typeof PATHS; size?: number }): React.JSX.Element {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={PATHS[name] ?? ''} fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
