/// A CSS `linear()` easing function that follows a motion within a tolerance: the motion mapped
/// onto 0 → 1 (its first value to its last), points at every extremum and impact, and more inside
/// each piece, each segment as long as its chord stays within the tolerance. Its error is measured
/// as the keyframes' is (`KeyframeBaker.maxError` on the same points as linear keyframes).
///
/// `linear(0 0%, 0.39 8.2%, …, 1 100%)`: an easing for `animation-timing-function` over the
/// motion's duration, from its first value to its last.
public struct CSSLinearEasing: Hashable, Sendable {
    /// One point of the function: the output (0 at the start, 1 at the end, beyond both where
    /// the motion overshoots) at a progress in [0, 1].
    public struct Stop: Hashable, Sendable {
        /// The easing's output there.
        public let output: Double
        /// The progress, in [0, 1].
        public let progress: Double
    }

    /// The points, by increasing progress: the first at 0, the last at 1.
    public let stops: [Stop]
    /// Max |easing − motion| over the duration, as a fraction of the travel.
    public let maxError: Double
    /// The max error it was fitted to, as a fraction of the travel.
    public let tolerance: Double

    /// The most points a fit may place before it gives up (each is a few dozen bytes of CSS).
    package static let pointLimit = 100_000

    /// - Parameters:
    ///   - source: the motion, from its first value to its last.
    ///   - tolerance: the max error as a fraction of the travel (default 0.001).
    /// - Throws: `KinemaError` for a non-positive tolerance, a motion that ends where it starts
    ///   (no travel to map onto 0 → 1), or one that needs more than `pointLimit` points.
    public init(fitting source: MotionSource, tolerance: Double = 0.001) throws {
        try KinemaError.requirePositive(tolerance, "tolerance")
        self.tolerance = tolerance
        // The points are fitted to 0.9 of the tolerance: the rest is the rounding's room.
        let tolerance = Self.fitShare * tolerance
        let d = source.duration, first = source.value(at: 0), travel = source.value(at: d) - first
        // Ending within rounding of the start (sin 2πt at t = 1) is ending where it started.
        let swing = KeyframeBaker.turningPoints(source).map { abs(source.value(at: $0) - first) }.max() ?? 0
        guard abs(travel) > 1e-9 * swing, travel.isFinite else {
            throw KinemaError(
                parameter: "travel (last value − first)", value: "\(travel)",
                rule: "non-zero and finite: linear() maps the motion from its first value to its last onto 0 → 1")
        }
        var normalized = try MotionSource(
            duration: d, breakpoints: source.breakpoints,
            value: { (source.value(at: $0) - first) / travel },
            velocity: { source.velocity(at: $0, fromLeft: $1) / travel })
        normalized.extrema = source.extrema
        normalized.verticalTangents = source.verticalTangents
        let (knots, jumpStarts) = KeyframeBaker.separatingEndJumps(
            KeyframeBaker.turningPoints(normalized), normalized, above: tolerance)
        var times = [knots[0]]
        let shortest = 1e-9 * max(1, d)
        func error(_ a: Double, _ b: Double) -> Double {
            KeyframeBaker.segmentMaxError(normalized, a, b, .linear, within: tolerance).error
        }
        for (a, e) in zip(knots, knots.dropFirst()) {
            if jumpStarts.contains(a) {  // a jump at an end: its own piece, which nothing gets closer to
                times.append(e)
                continue
            }
            var start = a
            while start < e {
                // The whole remainder, else shorter pieces predicted from the error (a chord's
                // error grows with the square of its length), then bisections back up.
                var end = e, failed: Double?, current = error(start, end)
                while !(current <= tolerance) && end - start > shortest {
                    failed = end
                    let ratio = current.isFinite ? min(0.9, max(0.25, 0.95 * (tolerance / current).squareRoot())) : 0.5
                    end = start + (end - start) * ratio
                    current = error(start, end)
                }
                if var high = failed, current <= tolerance {
                    for _ in 0..<3 where high - end > 0.02 * (high - start) {
                        let middle = 0.5 * (end + high)
                        if error(start, middle) <= tolerance { end = middle } else { high = middle }
                    }
                }
                times.append(end)
                start = end
                guard times.count <= Self.pointLimit else {
                    throw KinemaError(
                        parameter: "tolerance", value: "\(tolerance)",
                        rule: "loose enough for at most \(Self.pointLimit) linear() points")
                }
            }
        }
        var progress = times.map { $0 / d }
        progress[0] = 0
        progress[progress.count - 1] = 1
        let animation = try KeyframeAnimation(
            values: times.map { [normalized.value(at: $0)] }, keyTimes: progress, duration: d)
        maxError = KeyframeBaker.maxError(animation, normalized)
        stops = zip(animation.values, progress).map { Stop(output: $0[0], progress: $1) }
    }

    /// The share of the tolerance the points are fitted to.
    static let fitShare = 0.9

    /// The room the fit leaves below the tolerance, a third each to the outputs, the progress
    /// (at the steepest segment's slope) and the ends a stylesheet maps them between.
    var roundingShare: Double { max(tolerance - maxError, 1e-6 * tolerance) / 3 }

    /// The most an output lies above 1 or below 0.
    var excess: Double { stops.map { max($0.output - 1, -$0.output) }.max().map { max(0, $0) } ?? 0 }

    /// The most the printed easing (`css`) is from the motion, as a fraction of the travel, its
    /// ends printed as `KeyframeExport.cssLinear` prints them: the fit's error and the rounding's.
    public var exportedMaxError: Double { maxError + 3 * roundingShare }

    /// `linear(output progress%, …)`, each number to the digits that keep the rounding within its
    /// share of the room the fit leaves below the tolerance.
    public var css: String { css(rounded: true) }

    /// `css`, or with every number in shortest round-trip form.
    func css(rounded: Bool) -> String {
        guard rounded else {
            return "linear("
                + stops.map { "\(KeyframeExport.number($0.output)) \(KeyframeExport.number($0.progress * 100))%" }
                .joined(separator: ", ") + ")"
        }
        var slope = 1.0
        for (a, b) in zip(stops, stops.dropFirst()) where b.progress > a.progress {
            slope = max(slope, abs(b.output - a.output) / (b.progress - a.progress))
        }
        let outputDecimals = ExportPrecision.decimals(2 * roundingShare),
            progressDecimals = ExportPrecision.decimals(roundingShare / slope)
        let percents = KeyframeExport.times(stops.map(\.progress), perSecond: 100, decimals: progressDecimals)
        return "linear("
            + zip(stops, percents).map { "\(KeyframeExport.rounded($0.output, decimals: outputDecimals)) \($1)%" }
            .joined(separator: ", ") + ")"
    }

    /// A value the easing runs from or to, over `travel` (last − first), to the digits of its share.
    func end(_ value: Double, travel: Double) -> String {
        KeyframeExport.rounded(
            value, decimals: ExportPrecision.decimals(2 * roundingShare * abs(travel) / (1 + 2 * excess)))
    }
}
