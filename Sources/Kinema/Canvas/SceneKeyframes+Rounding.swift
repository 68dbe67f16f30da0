import RealModule

extension SceneKeyframes {
    /// How many decimals each kind of exported number keeps: as few as keep the rounding within a
    /// tenth of the tolerance (values and times) and within a hundred-thousandth of a segment's
    /// span (timing-function controls), and the bound that rounding adds to the fit's error.
    public struct Precision: Sendable, Hashable {
        /// Decimals of pixel values.
        public let valueDecimals: Int
        /// Decimals of times in seconds (each format converts: percent, frames, fractions).
        public let timeDecimals: Int
        /// Decimals of cubic-bezier controls.
        public let controlDecimals: Int
        /// The most the rounding moves a played position on the canvas, in pixels.
        public let roundingError: Double
    }

    /// The most a body's exported position can be from the simulated one, in pixels: the fit's
    /// error and the rounding's.
    public var maxError: Double { (bodies.map(\.maxError).max() ?? 0) + precision.roundingError }

    /// The precision the exports print with.
    public var precision: Precision {
        var speed = 0.0, span = 0.0, excess = 0.0
        for body in bodies {
            for fit in [body.x, body.y] {
                let a = fit.animation
                for i in 0..<a.timingFunctions.count {
                    let dt = (a.keyTimes[i + 1] - a.keyTimes[i]) * a.duration
                    let dv = abs(a.values[i + 1][0] - a.values[i][0]), f = a.timingFunctions[i]
                    let slope = max(f.x1 > 0 ? abs(f.y1 / f.x1) : 0, f.x2 < 1 ? abs((1 - f.y2) / (1 - f.x2)) : 0, 1)
                    if dt > 0 { speed = max(speed, 3 * slope * dv / dt) }
                    span = max(span, dv)
                    excess = max(excess, f.y1 - 1, f.y2 - 1, -f.y1, -f.y2)
                }
            }
        }
        func decimals(_ step: Double) -> Int {
            guard step > 0, step.isFinite else { return 17 }
            return min(17, max(-15, Int((-Double.log10(step)).rounded(.up))))
        }
        let valueDecimals = decimals(0.1 * tolerance)
        let timeDecimals = decimals(0.1 * tolerance / max(speed, 1e-300))
        let controlDecimals = decimals(1e-5)
        func step(_ n: Int) -> Double { n >= 0 ? 1 / KeyframeExport.powerOfTen(n) : KeyframeExport.powerOfTen(-n) }
        let perAxis =
            step(valueDecimals) / 2 * (1 + 2 * max(0, excess)) + speed * step(timeDecimals)
            + span * step(controlDecimals)
        return Precision(
            valueDecimals: valueDecimals, timeDecimals: timeDecimals, controlDecimals: controlDecimals,
            roundingError: 2.squareRoot() * perAxis)
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

    /// 10ⁿ, exact (every power of ten to 10²² is a double).
    static func powerOfTen(_ n: Int) -> Double {
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
