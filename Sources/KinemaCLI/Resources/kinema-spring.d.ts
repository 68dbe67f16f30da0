// TypeScript declarations for kinema-spring.js.

/** One baked response: values at keyTimes (fractions of duration), a cubic bezier per segment. */
export interface BakedResponse {
  duration: number;
  keyTimes: number[];
  values: number[];
  timingFunctions: [number, number, number, number][];
  maxError: number;
}

/** What `kinema keyframes --spring ... --retargetable` writes. */
export interface RetargetableResponses {
  format: 'kinema-retargetable-spring';
  spring: { mass: number; stiffness: number; damping: number };
  tolerance: number;
  step: BakedResponse;
  impulse: BakedResponse;
  reduced: BakedResponse;
}

export interface RetargetableSpringOptions {
  /** The animated property: a custom property (registered as a number, or a length with a unit) or e.g. 'translate'. */
  property?: string;
  /** Appended to every value: '' for a custom property, 'px' otherwise by default. */
  unit?: string;
  /** Where the element starts (default 0). */
  value?: number;
  /** Default: matchMedia('(prefers-reduced-motion: reduce)').matches. */
  reducedMotion?: boolean;
}

export class RetargetableSpring {
  constructor(element: HTMLElement | SVGElement, responses: RetargetableResponses, options?: RetargetableSpringOptions);
  readonly element: HTMLElement | SVGElement;
  readonly property: string;
  readonly reducedMotion: boolean;
  /** Where the spring is heading (or the value `set` last showed). */
  readonly target: number;
  /** The offsets still moving, one Web Animation each. */
  readonly animationCount: number;
  /** Shows `value` at once and holds it (a frame of a drag). */
  set(value: number): void;
  /** Heads for `to` from wherever the element is, at the velocity it has. */
  retarget(to: number): void;
  /** Hands the element to the spring at `velocity` (units per second), heading for `to` (default: the target). */
  release(velocity: number, to?: number): void;
  /** The value shown at `time` (ms on the document timeline, default now). */
  value(time?: number): number;
  /** The velocity in units per second at `time`, from the baked curves' slopes. */
  velocity(time?: number): number;
}
