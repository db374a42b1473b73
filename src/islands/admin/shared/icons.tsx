/** Small inline icons (stroke, 24×24), decorative: labels carry the meaning. */
const paths: Record<string, string> = {
  dashboard: 'M3 3h7v9H3zM14 3h7v5h-7zM14 12h7v9h-7zM3 16h7v5H3z',
  'appointment-types': 'M4 6h16M4 12h16M4 18h10',
  'time-slots': 'M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z',
  'blocked-dates': 'M3 5h18v16H3zM3 10h18M8 3v4M16 3v4M9 14l6 5M15 14l-6 5',
  'booked-slots': 'M3 5h18v16H3zM3 10h18M8 3v4M16 3v4M8 15l3 3 5-5',
  inventory: 'M3 7l9-4 9 4-9 4-9-4zM3 7v10l9 4 9-4V7M12 11v10',
  requests: 'M4 4h16v12H8l-4 4zM8 8h8M8 12h5',
  sidebar: 'M3 4h18v16H3zM9 4v16',
  'day-list': 'M6 3h12v18H6zM9 8h6M9 12h6M9 16h4',
  week: 'M3 5h18v16H3zM3 10h18M8 3v4M16 3v4M7 14h2M11 14h2M15 14h2M7 18h2M11 18h2',
  audit: 'M12 8v4l3 2M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5',
  users: 'M16 19v-1a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v1M9 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM22 19v-1a4 4 0 0 0-3-3.9M16 4.1a3 3 0 0 1 0 5.8',
  password: 'M5 11h14v10H5zM8 11V7a4 4 0 0 1 8 0v4',
  system: 'M22 12h-4l-3 9L9 3l-3 9H2',
  account: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21v-1a6 6 0 0 1 6-6h4a6 6 0 0 1 6 6v1',
  content: 'M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z',
  home: 'M3 11l9-8 9 8M5 9v12h14V9M10 21v-6h4v6',
  'sign-out': 'M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9',
};

export function Icon({ name, className = 'h-5 w-5' }: { name: string; className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d={paths[name] ?? ''} />
    </svg>
  );
}
