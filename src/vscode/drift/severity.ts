// How loud a drift finding is: the one rule the Problems panel and the Drift view both draw from, so a
// row and its diagnostic never disagree. Drift caused since Lore first looked is a warning (a doc that
// may now say something untrue, never an error that stops a build); breakage that was already there is
// information.

import type { DriftFinding } from '../contract';

export type DriftSeverity = 'warning' | 'information';

export function driftSeverity(f: Pick<DriftFinding, 'already_broken'>): DriftSeverity {
  return f.already_broken ? 'information' : 'warning';
}

/** Each state's own shape; the colour is the severity's, never the error colour. */
const STATE_SHAPES: Record<string, string> = {
  gone: 'warning',
  broken: 'debug-disconnect',
  changed: 'warning',
  relocated: 'arrow-swap',
};
const SEVERITY_COLOURS: Record<DriftSeverity, string> = {
  warning: 'list.warningForeground',
  information: 'notificationsInfoIcon.foreground',
};

/** The codicon and theme colour of a finding's row in the Drift view. */
export function driftIcon(f: Pick<DriftFinding, 'state' | 'already_broken'>): { id: string; color?: string } {
  if (f.state === 'current') return { id: 'pass' };
  const severity = driftSeverity(f);
  if (severity === 'information') return { id: 'info', color: SEVERITY_COLOURS.information };
  return { id: STATE_SHAPES[f.state] ?? 'warning', color: SEVERITY_COLOURS.warning };
}
