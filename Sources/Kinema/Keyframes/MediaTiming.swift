/// Core Animation's `CAMediaTiming`: maps a parent (layer) time to the animation's normalized
/// time, with begin time, speed, time offset, repetition, autoreversing and fill modes.
///
/// ```
/// t = (tp − beginTime)·speed + timeOffset
/// ```
/// then one cycle is `duration` (twice that when autoreversing); the active span is
/// `repeatDuration`, else `repeatCount` cycles (fractions allowed), else one cycle.
public struct MediaTiming: Hashable, Sendable {
    public enum FillMode: String, CaseIterable, Sendable {
        case removed, forwards, backwards, both
    }

    public private(set) var beginTime: Double
    public private(set) var duration: Double
    public private(set) var speed: Double
    public private(set) var timeOffset: Double
    public private(set) var repeatCount: Double
    public private(set) var repeatDuration: Double
    public private(set) var autoreverses: Bool
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
