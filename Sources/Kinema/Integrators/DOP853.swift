/// Dormand–Prince 8(5,3) (Hairer's dop853) with 7th-order dense output, for tight tolerances.
///
/// Twelve stages (the last reused, FSAL) per step, an error estimate that blends the 5th- and
/// 3rd-order embedded solutions as dop853.f does, step control with exponent 1/8 (safety 0.9,
/// factors clamped to [1/6, 3]), and three extra stages for the dense output of each accepted
/// step that is interpolated. The stages are generated with the tableau unrolled (`DOP853Stages`).
@_spi(Engine) public enum DOP853: AdaptiveMethod {
    public static var order: Int { 7 }
    public static var law: StepSizeController.Law { .dop853 }
    public static var evaluationsPerStep: Int { 12 }
    public static var denseEvaluations: Int { 3 }
    public static var lastKept: StageSlot { .k12 }
    public static var lastRegister: StageSlot { .r7 }

    @inlinable @inline(__always)
    public static func trial<R: StageRegisters>(
        _ r: inout R, _ system: R.System, time t: Double, step h: Double, end tNew: Double,
        absolute: Double, relative: Double, lanes: Double
    ) -> Double {
        DOP853Stages.trial(&r, system, time: t, step: h, end: tNew)
        let (sum5, sum3) = DOP853Stages.errorSums(&r, absolute: absolute, relative: relative)
        let denominator = sum5 + 0.01 * sum3
        return denominator > 0 ? abs(h) * sum5 / (denominator * lanes).squareRoot() : 0
    }

    @inlinable
    public static func denseOutput<R: StageRegisters>(_ r: inout R, _ system: R.System, time t: Double, step h: Double)
    {
        DOP853Stages.denseOutput(&r, system, time: t, step: h)
    }

    /// y + x(F0 + (1−x)(F1 + x(F2 + (1−x)(F3 + x(F4 + (1−x)(F5 + x·F6)))))), by Horner in x and
    /// 1 − x alternately (dop853's contd8), F0…F6 in `r1`…`r7`; at x = 0 the start itself (the sum
    /// would turn a −0 lane into +0).
    @inlinable @inline(__always)
    public static func dense<R: StageRegisters>(_ r: borrowing R, _ lane: R.Lane, _ x: Double) -> R.Element {
        if x == 0 { return r[.y, lane] }
        let tail = (1 - x) * (r[.r6, lane] + x * r[.r7, lane])
        let inner = r[.r3, lane] + (1 - x) * (r[.r4, lane] + x * (r[.r5, lane] + tail))
        return r[.y, lane] + x * (r[.r1, lane] + (1 - x) * (r[.r2, lane] + x * inner))
    }
}
