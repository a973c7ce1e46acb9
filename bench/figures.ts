/**
 * One measured figure: its value, the baseline measured in the same run, their ratio (value /
 * baseline), and an optional target on the value or on the ratio. Targets are reported, not asserted.
 */
export interface Target {
  on: 'value' | 'ratio';
  op: '>=' | '<=' | '<';
  limit: number;
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline: number | null;
  baselineName: string | null;
  ratio: number | null;
  target: string | null;
  pass: boolean | null;
  /** Raw runs and anything else needed to check the figure. */
  detail?: unknown;
}

export interface FigureInput {
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  target?: Target;
  detail?: unknown;
}

export function figure(input: FigureInput): Figure {
  const ratio = input.baseline && input.baseline.value > 0 ? input.value / input.baseline.value : null;
  const target = input.target;
  const measured = target?.on === 'ratio' ? ratio : input.value;
  return {
    name: input.name,
    value: input.value,
    unit: input.unit,
    baseline: input.baseline?.value ?? null,
    baselineName: input.baseline?.name ?? null,
    ratio,
    target: target ? `${target.on} ${target.op} ${target.limit}` : null,
    pass: !target || measured === null ? null : meets(measured, target),
    detail: input.detail,
  };
}

function meets(measured: number, target: Target): boolean {
  if (target.op === '>=') return measured >= target.limit;
  if (target.op === '<=') return measured <= target.limit;
  return measured < target.limit;
}
