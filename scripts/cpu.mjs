// The machine's busy CPU time so far, in core-seconds (user, nice, system, irq, softirq and steal
// of /proc/stat, in its USER_HZ ticks of 1/100 s), as scripts/phase.sh reads it too.
import { readFileSync } from 'node:fs';

export function busySeconds() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return (f[1] + f[2] + f[3] + f[6] + f[7] + f[8]) / 100;
}
