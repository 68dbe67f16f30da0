/// Core Animation's `CAMediaTiming`: maps a parent (layer) time to the animation's normalized
/// time, with begin time, speed, time offset, repetition, autoreversing and fill modes.
///
/// ```
/// t = (tp − beginTime)·speed + timeOffset
/// ```
/// then one cycle is `duration` (twice that when autoreversing); the active span is
/// `repeatDuration`, else `repeatCount` cycles (fractions allowed), else one cycle.
public struct MediaTiming: Hashable, Sendable {
    /// What the animation shows outside its active span, as `CAMediaTimingFillMode`.
    public enum FillMode: String, CaseIterable, Sendable {
        /// Nothing outside the active span.
        case removed
        /// The last value after it.
        case forwards
        /// The first value before it.
        case backwards
        /// The first value before, the last after.
        case both
    }

    /// The parent time at which the animation starts, in seconds.
    public private(set) var beginTime: Double
    /// One cycle, in seconds (> 0).
    public private(set) var duration: Double
    /// How fast the animation's time runs against its parent's (1: as fast; negative: backwards).
    public private(set) var speed: Double
    /// Added to the animation's time after the speed: where in its cycles it starts.
    public private(set) var timeOffset: Double
    /// Cycles to play (fractions allowed; 0 with no repeatDuration: one cycle).
    public private(set) var repeatCount: Double
    /// The active span in seconds, when > 0 (it wins over repeatCount).
    public private(set) var repeatDuration: Double
    /// Each cycle plays forward, then backward.
    public private(set) var autoreverses: Bool
    /// What is shown before and after the active span.
    public private(set) var fillMode: FillMode

    /// - Throws: `KinemaError` for a non-positive duration, non-finite times, or negative counts.
    public init(
        beginTime: Double = 0, duration: Double, speed: Double = 1, timeOffset: Double = 0,
        repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
        fillMode: FillMode = .removed
    ) throws {
        try KinemaError.requirePositive(duration, "duration")
        try KinemaError.requireFinite(beginTime, "beginTime")
        try KinemaError.requireFinite(speed, "speed")
        try KinemaError.requireFinite(timeOffset, "timeOffset")
        guard repeatCount >= 0, !repeatCount.isNaN else {
            throw KinemaError(parameter: "repeatCount", value: "\(repeatCount)", rule: "≥ 0 (∞ repeats forever)")
        }
        guard repeatDuration >= 0, !repeatDuration.isNaN else {
            throw KinemaError(parameter: "repeatDuration", value: "\(repeatDuration)", rule: "≥ 0 (∞ repeats forever)")
        }
        self.beginTime = beginTime
        self.duration = duration
        self.speed = speed
        self.timeOffset = timeOffset
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses
        self.fillMode = fillMode
    }

    /// The length of one cycle: the duration, doubled when autoreversing.
    public var cycle: Double { autoreverses ? 2 * duration : duration }

    /// The active span in local time.
    public var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount * cycle }
        return cycle
    }

    /// The normalized time (0…1 within the duration) shown at parent time `parentTime`, or nil
    /// when the animation shows nothing then (before it starts or after it ends, without a fill).
    public func progress(at parentTime: Double) -> Double? {
        let local = (parentTime - beginTime) * speed + timeOffset
        let active = activeDuration
        if local < 0 {
            return fillMode == .backwards || fillMode == .both ? 0 : nil
        }
        if local >= active {
            guard fillMode == .forwards || fillMode == .both else { return nil }
            return progress(local: active, atEnd: true)
        }
        return progress(local: local, atEnd: false)
    }

    func progress(local: Double, atEnd: Bool) -> Double {
        var inCycle = local.truncatingRemainder(dividingBy: cycle)
        // The end of a whole number of cycles shows the cycle's end, not its start.
        if atEnd && inCycle == 0 && local > 0 { inCycle = cycle }
        if autoreverses && inCycle > duration { inCycle = cycle - inCycle }
        return min(max(inCycle / duration, 0), 1)
    }
}
