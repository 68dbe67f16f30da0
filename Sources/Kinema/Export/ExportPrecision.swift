import RealModule

/// How many decimals each kind of exported number keeps, and the most that rounding them can
/// move a played value. Each of values, times and timing-function controls gets a third of a
/// budget: a value rounded by ½ step moves a segment's output by at most that step times its
/// overshoot; a key time by one step, at the segment's fastest speed; a control by one step, at
/// the segment's span times its steepest normalized slope.
public struct ExportPrecision: Sendable, Hashable {
    /// Decimals of values (in the track's units).
    public let valueDecimals: Int
    /// Decimals of times in seconds (each format converts: fractions, percent, frames).
    public let timeDecimals: Int
    /// Decimals of cubic-bezier controls.
    public let controlDecimals: Int
    /// The most the rounding moves a played value, in the track's units.
    public let roundingError: Double

    /// Every number in shortest round-trip form (17 significant digits at most): no rounding.
    public static let full = ExportPrecision(valueDecimals: 17, timeDecimals: 17, controlDecimals: 17, roundingError: 0)

    init(valueDecimals: Int, timeDecimals: Int, controlDecimals: Int, roundingError: Double) {
        (self.valueDecimals, self.timeDecimals, self.controlDecimals) = (valueDecimals, timeDecimals, controlDecimals)
        self.roundingError = roundingError
    }

    /// As few decimals as keep the rounding of `animations`' numbers within `budget` at every
    /// time (`.full` for a budget that is not finite and > 0).
    init(rounding animations: [KeyframeAnimation], within budget: Double) {
        guard budget > 0, budget.isFinite else {
            self = .full
            return
        }
        var speed = 0.0, steepness = 0.0, excess = 0.0
        for a in animations {
            for i in a.timingFunctions.indices {
                let dt = (a.keyTimes[i + 1] - a.keyTimes[i]) * a.duration
                let dv = abs(a.values[i + 1][0] - a.values[i][0]), f = a.timingFunctions[i]
                // A bezier's steepest output per unit of progress, from its end slopes (3 covers
                // its middle: x1 = x2 = 0.5, y1 = 0, y2 = 1 has end slopes 0 and 2 in between).
                let slope = 3 * max(f.x1 > 0 ? abs(f.y1 / f.x1) : 0, f.x2 < 1 ? abs((1 - f.y2) / (1 - f.x2)) : 0, 1)
                if dt > 0 { speed = max(speed, slope * dv / dt) }
                steepness = max(steepness, dv * (1 + slope))
                excess = max(excess, f.y1 - 1, f.y2 - 1, -f.y1, -f.y2)
            }
        }
        let decimals = Self.decimals
        let share = budget / 3
        let valueDecimals = decimals(2 * share / (1 + 2 * max(0, excess)))
        let timeDecimals = decimals(share / max(speed, 1e-300))
        let controlDecimals = decimals(share / max(steepness, 1e-300))
        func step(_ n: Int) -> Double { n >= 0 ? 1 / KeyframeExport.powerOfTen(n) : KeyframeExport.powerOfTen(-n) }
        self.init(
            valueDecimals: valueDecimals, timeDecimals: timeDecimals, controlDecimals: controlDecimals,
            roundingError: step(valueDecimals) / 2 * (1 + 2 * max(0, excess)) + speed * step(timeDecimals)
                + steepness * step(controlDecimals))
    }

    /// The fewest decimals (−15 to 17) whose step is at most `step`; all 17 for a step that is 0
    /// or not finite.
    static func decimals(_ step: Double) -> Int {
        guard step > 0, step.isFinite else { return 17 }
        return min(17, max(-15, Int((-Double.log10(step)).rounded(.up))))
    }

    /// A value as exported.
    public func value(_ x: Double) -> String { KeyframeExport.rounded(x, decimals: valueDecimals) }

    /// A max error as an export states it: three decimals past the values'.
    func error(_ x: Double) -> String {
        self == .full ? KeyframeExport.number(x) : KeyframeExport.rounded(x, decimals: 3 + valueDecimals)
    }

    /// A timing-function control as exported.
    public func control(_ x: Double) -> String { KeyframeExport.rounded(x, decimals: controlDecimals) }

    /// `f`'s four controls, as exported, joined by `separator`.
    func controls(_ f: CubicBezierTimingFunction, separator: String = ", ") -> String {
        let f = exported(f)
        return [f.x1, f.y1, f.x2, f.y2].map(control).joined(separator: separator)
    }

    /// Whether `f` as exported is linear: its rounded controls lie on y = x, so that its curve is
    /// y = x exactly (a segment of uniform speed, such as a body's flight along x).
    func isLinear(_ f: CubicBezierTimingFunction) -> Bool {
        control(f.x1) == control(f.y1) && control(f.x2) == control(f.y2)
    }

    /// `f`, or `linear`'s (0, 0, 1, 1), the same curve in the fewest digits, where it is linear.
    func exported(_ f: CubicBezierTimingFunction) -> CubicBezierTimingFunction { isLinear(f) ? .linear : f }

    /// Key times (fractions of `duration`) times `scale` (1: fractions, 100: percent), each to
    /// the decimals that keep the time in seconds to `timeDecimals`.
    func fractions(_ keyTimes: [Double], duration: Double, scale: Double = 1) -> [String] {
        guard self != .full else { return keyTimes.map { KeyframeExport.number($0 * scale) } }
        // A fraction's step times the duration is the time's step.
        let extra = max(0, Int(Double.log10(duration).rounded(.up)))
        return KeyframeExport.times(keyTimes, perSecond: scale, decimals: timeDecimals + extra)
    }

    /// Key times (fractions of `duration`) as frames at `frameRate`.
    func frames(_ keyTimes: [Double], duration: Double, frameRate: Double) -> [String] {
        guard self != .full else { return keyTimes.map { KeyframeExport.number($0 * duration * frameRate) } }
        return KeyframeExport.times(keyTimes.map { $0 * duration }, perSecond: frameRate, decimals: timeDecimals)
    }

    /// The durations between successive times `t` (seconds), each the difference of the two
    /// rounded times, so that their sums land on the rounded times and no rounding accumulates.
    func durations(_ t: [Double]) -> [String] {
        // Whole seconds at the coarsest: a step of tens of seconds is a still motion's.
        let n = max(0, timeDecimals), power = KeyframeExport.powerOfTen(n)
        let ticks = t.map { ($0 * power).rounded() }
        guard n < 17, ticks.allSatisfy({ abs($0) < 9e15 }) else {
            return zip(t, t.dropFirst()).map { KeyframeExport.number($1 - $0) }
        }
        return zip(ticks, ticks.dropFirst()).map { a, b in KeyframeExport.decimal(Int(b - a), decimals: n) }
    }
}

extension KeyframeExport {
    /// `x` rounded to `decimals` decimals (negative: to tens, hundreds…) in its shortest form:
    /// 0.1 × 3 rounded to 2 decimals prints 0.3, not 0.30000000000000004.
    package static func rounded(_ x: Double, decimals: Int) -> String {
        guard x.isFinite, decimals < 17 else { return number(x) }
        let power = powerOfTen(abs(decimals))
        let value = decimals >= 0 ? (x * power).rounded() / power : (x / power).rounded() * power
        // Whole numbers without Swift's ".0".
        return value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : number(value)
    }

    /// `x` ≥ 0 to three significant digits, rounded up (a stated bound never understates).
    static func upward(_ x: Double) -> String {
        guard x > 0, x.isFinite else { return number(x) }
        let decimals = 2 - Int(Double.log10(x).rounded(.down))
        guard decimals < 17 else { return number(x) }
        let power = powerOfTen(abs(decimals))
        let value = decimals >= 0 ? (x * power).rounded(.up) / power : (x / power).rounded(.up) * power
        return value == value.rounded() && value < 1e15 ? "\(Int(value))" : number(value)
    }

    /// `ticks` × 10⁻ⁿ written out exactly: 1250 with 3 decimals is 1.25.
    static func decimal(_ ticks: Int, decimals n: Int) -> String {
        guard n > 0 else { return "\(ticks)" }
        let digits = String(ticks.magnitude),
            padded = String(repeating: "0", count: max(0, n + 1 - digits.count)) + digits
        let whole = padded.dropLast(n), fraction = padded.suffix(n).reversed().drop { $0 == "0" }.reversed()
        let sign = ticks < 0 ? "-" : ""
        return fraction.isEmpty ? sign + whole : sign + whole + "." + String(fraction)
    }

    /// 10ⁿ, exact for 0 ≤ n ≤ 22 (every power of ten to 10²² is a double); a negative n gives 1 / 10⁻ⁿ.
    static func powerOfTen(_ n: Int) -> Double {
        guard n >= 0 else { return 1 / powerOfTen(-n) }
        var power = 1.0
        for _ in 0..<min(n, 308) { power *= 10 }
        return power
    }

    /// Times `t` (seconds, increasing) as `t × perSecond` (percent, frames, fractions), each
    /// rounded to the decimals that keep `decimals` in seconds, or more where two would meet.
    static func times(_ t: [Double], perSecond k: Double, decimals: Int) -> [String] {
        var n = decimals - Int((Double.log10(k)).rounded(.down))
        while true {
            let printed = t.map { rounded($0 * k, decimals: n) }
            let values = printed.map { Double($0) ?? .nan }
            if n >= 17 || zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) { return printed }
            n += 1
        }
    }
}
