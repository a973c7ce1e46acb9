import fs from 'node:fs';

/** Resident set size of a process in KiB, from /proc/<pid>/status (VmRSS). */
export function readRssKiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]);
}

/** Samples VmRSS every `everyMs` until stopped; returns the peak seen and how many samples were taken. */
export function sampleRss(pid: number, everyMs = 50): { stop(): { peakKiB: number; samples: number } } {
  let peakKiB = readRssKiB(pid);
  let samples = 1;
  const timer = setInterval(() => {
    peakKiB = Math.max(peakKiB, readRssKiB(pid));
    samples += 1;
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      peakKiB = Math.max(peakKiB, readRssKiB(pid));
      return { peakKiB, samples: samples + 1 };
    },
  };
}
