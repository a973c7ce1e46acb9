import fs from 'node:fs';

/** Resident set size of a process in KiB, from /proc/<pid>/status (VmRSS). */
export function readRssKiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]);
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux whatever the kernel's own tick). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds a process has used so far (user + system, all its threads), from /proc/<pid>/stat.
 * On a shared machine the CPU time per byte is steadier than the wall time.
 */
export function readCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces); utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
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

/** What a process used while `work` ran: its RSS growth (peak minus the RSS before) and its CPU seconds. */
export async function measureProcess<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; rssGrowthMiB: number; cpuSeconds: number }> {
  const rssBeforeKiB = readRssKiB(pid);
  const cpuBefore = readCpuSeconds(pid);
  const sampler = sampleRss(pid);
  let peakKiB = rssBeforeKiB;
  const result = await work().finally(() => {
    peakKiB = sampler.stop().peakKiB;
  });
  return { result, rssGrowthMiB: (peakKiB - rssBeforeKiB) / 1024, cpuSeconds: readCpuSeconds(pid) - cpuBefore };
}
